"""Find failures in pytest's own report: `E   ...` blocks and the `FAILED ... - ...` summary.

A summary line repeats a failure shown in full above it; the registry drops such repeats.
"""

from __future__ import annotations

from leafexplain.extract.common import EXCEPTION_LINE, exception_class, trim_blank, user_frame
from leafexplain.models import ErrorEvent, Frame
from leafexplain.regex import lazy_regex

SECTION = lazy_regex(r"^_{3,} (?P<name>.+?) _{3,}$")
FRAME = lazy_regex(r"^(?P<file>[^\s:]+\.py):(?P<line>\d+):(?: in (?P<function>\S+)|\s.*|)$")
E_LINE = lazy_regex(r"^E(?:\s|$)")
SUMMARY = lazy_regex(r"^(?P<kind>FAILED|ERROR) (?P<node>\S+)(?: - (?P<rest>.+))?$")
# `>       helper(cfg)`: the line pytest's long report marks as the one that ran (its frame line follows).
MARKED = lazy_regex(r"^>\s+(?P<code>\S.*)$")
# `    helper(cfg)` right under `test_b.py:6: in test_nested`: the frame's line in the short report.
SHORT_CODE = lazy_regex(r"^ {4}(?P<code>\S.*)$")


def _split(text: str) -> tuple[str | None, str]:
    """An exception type and message from `Type: message`, `assert ...` or anything else."""
    em = EXCEPTION_LINE.match(text)
    if em and (em.group("message") is not None or exception_class(text)):
        return em.group("type"), em.group("message") or ""
    if text.startswith("assert "):
        return "AssertionError", text
    return None, text


def extract(lines: list[str], claimed: list[bool]) -> list[ErrorEvent]:
    events: list[ErrorEvent] = []
    test: str | None = None
    frames: list[Frame] = []
    marked: str | None = None  # the code of the frame whose line comes next, in the long report
    i, count = 0, len(lines)
    while i < count:
        line = lines[i]
        if claimed[i]:
            i += 1
            continue
        first = line[:1]  # one look at the first character spares most lines every pattern below
        section = SECTION.match(line) if first == "_" and line.startswith("___") else None
        if section:
            test, frames, marked = section.group("name"), [], None
            i += 1
            continue
        if first == ">" and (mark := MARKED.match(line)):
            marked = mark.group("code").strip()
            i += 1
            continue
        fm = FRAME.match(line) if ".py:" in line else None
        if fm:
            short = SHORT_CODE.match(lines[i + 1]) if marked is None and i + 1 < count else None
            code = marked or (short.group("code").strip() if short else None)
            frames.append(Frame(fm.group("file"), int(fm.group("line")), function=fm.group("function"), code=code))
            marked = None
            i += 1
            continue
        if first == "E" and E_LINE.match(line):
            start = i
            block: list[str] = []
            indent = len(line) - len(line[1:].lstrip()) if len(line) > 1 else 1
            while i < len(lines) and E_LINE.match(lines[i]):
                block.append(lines[i][indent:] if lines[i][1:indent].isspace() else lines[i][1:].lstrip())
                i += 1
            location = None
            # The long report names the failing line under the block (`test_b.py:2: KeyError`), after
            # blank lines only; the short report does not, and its next test's frames are not this one's.
            for j in range(i, min(i + 3, len(lines))):
                after = FRAME.match(lines[j])
                if after and after.group("function") is None:
                    location = Frame(file=after.group("file"), line=int(after.group("line")), code=marked)
                    claimed[j] = True
                if after or lines[j].strip():
                    break
            marked = None
            for k in range(start, i):
                claimed[k] = True
            block = trim_blank(block)
            if not block:
                continue
            error_type, first = _split(block[0].strip())
            message = "\n".join([first, *block[1:]]).strip()
            all_frames = tuple(frames + ([location] if location else []))
            events.append(
                ErrorEvent(
                    language="python",
                    error_type=error_type,
                    message=message,
                    location=location,
                    frames=all_frames,
                    user_frame=user_frame(all_frames, "python", innermost_first=False),
                    extractor="pytest",
                    test=test,
                    line_number=start + 1,
                )
            )
            continue
        summary = SUMMARY.match(line) if first in ("F", "E") and line.startswith(("FAILED", "ERROR")) else None
        if summary and summary.group("rest"):
            error_type, message = _split(summary.group("rest").strip())
            claimed[i] = True
            events.append(
                ErrorEvent(
                    language="python",
                    error_type=error_type,
                    message=message,
                    extractor="pytest-summary",
                    test=summary.group("node"),
                    line_number=i + 1,
                )
            )
        elif summary:
            claimed[i] = True
        i += 1
    return events
