"""Find the reports Rust's error crates write in place of the default ones: anyhow/eyre chains, color-eyre, human-panic.

- A `main` returning `Result` with anyhow or eyre prints the error's Debug form: `Error: msg`, then
  `Caused by:` and each cause indented (numbered `0: `, `1: ` when there are several). eyre's report
  handlers (stable-eyre, color-eyre) print `Error: ` alone, then the numbered chain from the error
  itself, and color-eyre a `Location:` after it. Each link is an event, innermost first, each the
  cause of the next (as Python's chained exceptions are read), all at the line where the chain
  starts: the innermost cause is the specific explanation and is shown first.
- color-eyre's panic hook: `The application panicked (crashed).`, `Message:`, `Location:` (the
  panic's place, which is the user's frame), and its BACKTRACE box.
- human-panic's report: `Well, this is embarrassing.`, `NAME had a problem and crashed.`, and the
  report file it wrote; the panic's message and place are in that file (`cause = "..."`,
  `explanation`), read when the report was pasted below.

cargo's own chains (`error: ...` then `Caused by:`) are cargo's report of a build, not a program's.
"""

from __future__ import annotations

from leafexplain.extract.clues import CAUSED_BY, HUMAN_PANIC_OPENINGS
from leafexplain.extract.clues import REPORT_ANCHORS as _ANCHORS
from leafexplain.extract.common import user_frame
from leafexplain.extract.rust import FRAME_AT, FRAME_FN, panic_header
from leafexplain.models import ErrorEvent, Frame
from leafexplain.regex import lazy_regex

COLOR_EYRE_PANIC = "The application panicked (crashed)."
MAX_CHAIN_LINES = 60
MAX_REPORT_LINES = 80  # a human-panic report's own lines, the pasted report file after them
_NUMBERED = lazy_regex(r"^(?P<indent>\s+)(?P<n>\d+): (?P<message>.*)$")
_PLACE = lazy_regex(r"^(?P<file>\S.*?):(?P<line>\d+)(?::(?P<col>\d+))?\s*$")
_REPORT_FILE = lazy_regex(r'We have generated a report file at "(?P<path>[^"]+)"')
_CAUSE = lazy_regex(r'^cause = (?P<quote>"|\')(?P<message>.*)(?P=quote)\s*$')
_EXPLANATION_PLACE = lazy_regex(r"Panic occurred in file '(?P<file>[^']+)' at line (?P<line>\d+)")
# What ends a cause's lines besides a blank or unindented line: cargo's captured output and a panic's header.
_CAUSE_ENDS = ("--- stdout", "--- stderr")


def _anchors_in(text: str) -> tuple[str, ...]:
    """The anchors the whole text holds, looked for at once: most logs hold none, and then no line needs a look (a
    log whose every line says `Error: ` still has no `Error:` alone on a line)."""
    found = [anchor for anchor in _ANCHORS if anchor in text]
    if "Error:" in found and "Error:\n" not in text and "Error: \n" not in text:
        found.remove("Error:")
    return tuple(found)


def extract(lines: list[str], claimed: list[bool]) -> list[ErrorEvent]:
    anchors = _anchors_in("\n".join(lines))
    if not anchors:
        return []
    events: list[ErrorEvent] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if claimed[i] or not any(anchor in line for anchor in anchors):
            i += 1
            continue
        text = line.strip()
        found: tuple[list[ErrorEvent], int] | None = None
        if text == CAUSED_BY:
            found = _anyhow_chain(lines, i, claimed)
        elif text.startswith("Error:") and not text[6:].strip():
            found = _eyre_report(lines, i, claimed)
        elif text == COLOR_EYRE_PANIC:
            found = _color_eyre_panic(lines, i)
        elif text.startswith(HUMAN_PANIC_OPENINGS[0]) or HUMAN_PANIC_OPENINGS[1] in text:
            found = _human_panic(lines, i)
        if found is None:
            i += 1
            continue
        read, end = found
        for k in range(i, end):
            claimed[k] = True
        events.extend(read)
        i = end
    return events


def _chain_events(messages: list[str], start: int, location: Frame | None = None) -> list[ErrorEvent]:
    """The links of an error chain, outermost first as printed, as events innermost first: each the cause of the
    next, the outermost with the chain's place."""
    events = []
    last = len(messages) - 1
    for n in range(last, -1, -1):
        events.append(
            ErrorEvent(
                "rust",
                "error",
                messages[n],
                location=location if n == 0 else None,
                user_frame=user_frame([location], "rust", innermost_first=True) if n == 0 and location else None,
                chained=None if n == 0 else "cause",
                extractor="rust-error-chain",
                line_number=start + 1,
            )
        )
    return events


def _causes(lines: list[str], i: int) -> tuple[list[str], int]:
    """The causes listed from line i on, indented: numbered (each number a cause, deeper lines its own) or one a
    line at the first one's indent. Ends at a blank or unindented line, cargo's captured output, a panic."""
    causes: list[str] = []
    numbered: bool | None = None
    first = i
    while i < len(lines) and i - first < MAX_CHAIN_LINES and lines[i][:1].isspace() and lines[i].strip():
        line = lines[i]
        text = line.strip()
        if text.startswith(_CAUSE_ENDS) or ("panicked at" in line and panic_header(line)):
            break
        m = _NUMBERED.match(line)
        if numbered is None:
            numbered = m is not None
        if numbered and m is None:
            causes[-1] += "\n" + text
        else:
            causes.append(_unmarked(m.group("message") if numbered and m else text))
        i += 1
    return causes, i


def _unmarked(text: str) -> str:
    """Markdown emphasis a paste put around the chain (`_Failed to ...` ... `(os error 2)_`) is not its text."""
    return text.strip().strip("*_").strip()


def _anyhow_chain(lines: list[str], at: int, claimed: list[bool]) -> tuple[list[ErrorEvent], int] | None:
    """`msg` (after `Error: `), a blank line, `Caused by:`, the causes: the Debug form of anyhow's and eyre's errors.
    The message's line, above, is claimed here; the caller claims from `Caused by:` on."""
    causes, end = _causes(lines, at + 1)
    if not causes:
        return None
    head = at - 1
    while head >= 0 and not lines[head].strip() and at - head <= 2:
        head -= 1
    top = lines[head].strip() if 0 <= head < at - 1 and not claimed[head] else ""
    if top.startswith(("error:", "error[", "warning:")):
        return None  # cargo's report of its build, not a program's error
    top = _unmarked(top.removeprefix("Error:"))
    if top.startswith(("```", "~~~")) or top.endswith(":"):
        top = ""  # a fence, or prose that introduces the paste
    if top:
        claimed[head] = True
        return _chain_events([top, *causes], head), end
    return _chain_events(causes, at), end


def _eyre_report(lines: list[str], at: int, claimed: list[bool]) -> tuple[list[ErrorEvent], int] | None:
    """`Error: ` alone, then `   0: msg`, `   1: cause` ..., perhaps color-eyre's `Location:` and its place."""
    causes, end = _causes(lines, at + 1)
    if not causes or not _NUMBERED.match(lines[at + 1]):
        return None
    location = None
    j = end
    while j < len(lines) and not lines[j].strip() and j - end < 2:
        j += 1
    if j + 1 < len(lines) and lines[j].strip() == "Location:" and (place := _PLACE.match(lines[j + 1].strip())):
        location = _frame(place.group("file"), place.group("line"), place.group("col"))
        end = j + 2
    return _chain_events(causes, at, location), end


def _frame(file: str, line: str, col: str | None) -> Frame:
    return Frame(file=file, line=int(line), column=int(col) if col else None)


def _color_eyre_panic(lines: list[str], at: int) -> tuple[list[ErrorEvent], int] | None:
    """color-eyre's panic report: the message after `Message:` (over lines, up to `Location:`), the place, and the
    frames of its BACKTRACE box (the hidden ones shown as `⋮ N frames hidden ⋮`)."""
    i = at + 1
    if i >= len(lines) or not lines[i].startswith("Message:"):
        return None
    message = [lines[i][8:].strip()]
    i += 1
    while i < len(lines) and not lines[i].startswith("Location:") and i - at < MAX_CHAIN_LINES:
        message.append(lines[i])
        i += 1
    location = None
    if i < len(lines) and (place := _PLACE.match(lines[i][9:].strip())):
        location = _frame(place.group("file"), place.group("line"), place.group("col"))
        i += 1
    frames, i = _backtrace_box(lines, i)
    mine = user_frame([location], "rust", innermost_first=True) if location else None
    event = ErrorEvent(
        "rust",
        "panic",
        "\n".join(message).strip(),
        location=location,
        frames=tuple(frames),
        user_frame=mine or user_frame(frames, "rust", innermost_first=True),
        extractor="rust-color-eyre",
        line_number=at + 1,
    )
    return [event], i


def _backtrace_box(lines: list[str], i: int) -> tuple[list[Frame], int]:
    """The frames of color-eyre's box, its header and hidden-frame lines, and the hints after it (`Run with ...`)."""
    frames: list[Frame] = []
    j = i
    while j < len(lines):
        text = lines[j].strip()
        if not text or ("BACKTRACE" in text and text.startswith("━")) or ("frames hidden" in text):
            j += 1
            continue
        if text.startswith(("Run with COLORBT_SHOW_HIDDEN", "Run with RUST_BACKTRACE", "Backtrace omitted.")):
            j += 1
            i = j
            continue
        fn = FRAME_FN.match(lines[j])
        if fn:
            frames.append(Frame(file="", function=fn.group("function")))
            j += 1
            i = j
            continue
        at = FRAME_AT.match(lines[j])
        if at and frames:
            last = frames[-1]
            line_number = at.group("line")
            frames[-1] = Frame(file=at.group("file"), line=int(line_number), function=last.function)
            j += 1
            i = j
            continue
        break
    return frames, i


def _human_panic(lines: list[str], at: int) -> tuple[list[ErrorEvent], int] | None:
    """human-panic's report: its lines up to `Thank you kindly!` (or the report file's line), and the message and place
    of the report file when it was pasted after them."""
    end = at + 1
    report: str | None = None
    message = ""
    location = None
    for j in range(at, min(at + MAX_REPORT_LINES, len(lines))):
        line = lines[j]
        if report is None and (m := _REPORT_FILE.search(line)):
            report = m.group("path")
            end = j + 1
        elif line.strip() == "Thank you kindly!":
            end = j + 1
        elif (m := _CAUSE.match(line.strip())) and not message:
            message = m.group("message").replace('\\"', '"')
            end = j + 1  # the pasted report file's lines are the report's
        elif location is None and (m := _EXPLANATION_PLACE.search(line)):
            location = Frame(file=m.group("file"), line=int(m.group("line")))
            end = max(end, j + 1)
    if report is None and not message:
        return None
    event = ErrorEvent(
        "rust",
        "panic",
        message,
        location=location,
        user_frame=user_frame([location], "rust", innermost_first=True) if location else None,
        extractor="rust-human-panic",
        line_number=at + 1,
        report=report,
    )
    return [event], end
