"""Find rustc's compile errors: each `error[E0382]: ...` or `error: ...` diagnostic with its primary span.

rustc prints a diagnostic as a header (`error[E0382]: borrow of moved value: `v``), its primary
span (` --> src/main.rs:8:20`), a drawing of the code with labels under it (`^ value borrowed here
after move`), and sub-diagnostics (`note: ...`, `help: ...`, `= note: ...`), then a blank line. One
error diagnostic is one event: its message the header's text, its code the `E0382`, its span the
user's frame (so the user's lines are shown) with the code rustc printed for that line, and its
labels, notes and help lines its `detail`.

Not events: warnings (`warning: unused variable`, `warning[E0170]: ...`), read and claimed so that a
build with warnings only has no error at all; the summaries after the diagnostics (`error: could not
compile ...`, `error: aborting due to 2 previous errors`, `Some errors have detailed explanations`,
`For more information about this error, try ...`, `warning: `x` (bin "x") generated 1 warning`),
claimed too. An `error: ...` without a code is rustc's only when a span follows its header (`error:
expected one of ...`, `error: cannot find macro ...`), its drawing has no span but notes (`error: linker
`link.exe` not found`, `  |`, `  = note: ...`), or it is the linker's failure (`error: linking with `cc`
failed`): cargo and many other tools print `error: ` lines of their own. rustc before 1.12 put the span
first and the code last (`src/main.rs:1:1: 1:5 error: missing lifetime specifier [E0106]`).
"""

from __future__ import annotations

from leafexplain.extract.clues import RUSTC_WORDS as _WORDS
from leafexplain.extract.common import LineStripper, prefix_stripper, user_frame
from leafexplain.models import ErrorEvent, Frame

MAX_BODY_LINES = 300  # a diagnostic's drawing and notes; a linker's note may be long, but it is one line
MAX_DETAIL_LINES = 30  # labels, notes and help lines kept of one diagnostic
MAX_DETAIL_CHARS = 500  # of each of them (a linker's `note:` holds its whole command line)
# Lines after the diagnostics that sum them up: claimed, never events of their own.
_NAMING_CODES = (  # the summary lines that name the run's error codes
    "Some errors have detailed explanations: ",
    "For more information about this error, try `rustc --explain",
    "For more information about an error, try `rustc --explain",
)
_SUMMARY_STARTS = (
    "error: could not compile ",
    "error: aborting due to ",
    *_NAMING_CODES,
    "warning: build failed, waiting for other jobs to finish",
)
_LINKER_FAILURE = "linking with `"
_MARKS = "^-+~_|"  # what draws a label's place under the code (`^^^`, `---`, `+++`, a multi-line span's `|_`)


Header = tuple[int, str, str | None, str]  # where the header starts, `error` or `warning`, the code (or None), text


def diagnostic_header(line: str) -> Header | None:
    """`error[E0382]: TEXT`, `error: TEXT`, `warning: TEXT` or `warning[CODE]: TEXT`, at the line's start or
    after a prefix that ends in a space or a mark (a CI timestamp, `[build]`): string tests, no regex."""
    for severity in ("error", "warning"):
        at = line.find(severity)
        if at < 0 or (at and (line[at - 1].isalnum() or line[at - 1] in "_`'\"")):
            continue
        rest = line[at + len(severity) :]
        code = None
        if rest.startswith("["):
            code, bracket, rest = rest[1:].partition("]")
            if not bracket or not code or not code.replace("_", "").isalnum():
                continue
        if rest.startswith(": ") and rest[2:].strip():
            return at, severity, code, rest[2:].strip()
    return None


def span_line(line: str) -> Frame | None:
    """` --> FILE:LINE:COL`: where a diagnostic (or one of its notes) points."""
    body = line.lstrip()
    if not body.startswith("--> "):
        return None
    parts = body[4:].strip().rsplit(":", 2)
    if len(parts) != 3 or not parts[0] or not parts[1].isdecimal() or not parts[2].isdecimal():
        return None
    return Frame(file=parts[0], line=int(parts[1]), column=int(parts[2]))


def _gutter(line: str) -> tuple[str, str] | None:
    """A line of the code's drawing, `NN | code` or `   | marks label`: its line number (or "") and what follows
    the bar."""
    head, bar, after = line.partition("|")
    if not bar or (head.strip() and not head.strip().isdecimal()):
        return None
    return head.strip(), after[1:] if after.startswith(" ") else after


def _label(drawn: str) -> str | None:
    """The label under the code: the text after the marks (`^^^^ value borrowed here after move`), or a label
    set on a line of its own below them (`in this function`)."""
    text = drawn.strip()
    if not text:
        return None
    if text[0] in _MARKS:
        marks = len(text) - len(text.lstrip(_MARKS + " "))
        text = text[marks:]
    return text or None


def _detail(body: list[str]) -> tuple[str, ...]:
    """The labels, notes and help lines of a diagnostic's body, in order, without the drawing of the code."""
    kept: list[str] = []
    for line in body:
        bare = line.strip()
        if bare.startswith("= "):  # `= note: ...`, `= help: ...`
            kept.append(bare[2:])
        elif bare.startswith(("note: ", "help: ", "note[", "help[")) and line[:1] not in " \t":
            kept.append(bare)
        elif span_line(line) is None and (drawn := _gutter(line)) is not None and not drawn[0]:
            label = _label(drawn[1])
            if label is not None:
                kept.append(label)
        if len(kept) >= MAX_DETAIL_LINES:
            break
    return tuple(line[:MAX_DETAIL_CHARS] for line in kept)


def _printed_code(body: list[str], line: int) -> str | None:
    """The code rustc printed for the span's line in its first drawing (`8 |     println!("{}", v.len());`)."""
    number = str(line)
    for text in body:
        drawn = _gutter(text)
        if drawn is not None and drawn[0] == number:
            return drawn[1]
        if text[:1].isalpha():  # a note of its own (`note: ...`): its drawing is of another place
            break
    return None


def _ends_body(line: str) -> bool:
    """The line after a diagnostic: blank, or the next header, or cargo's and rustc's summary lines."""
    return not line.strip() or (line[:1] not in " \t" and line.startswith(("error", "warning", *_SUMMARY_STARTS)))


def _body(lines: list[str], start: int, claimed: list[bool], strip: LineStripper) -> list[str]:
    """The lines of a diagnostic after its header, each with the header's prefix taken off."""
    body: list[str] = []
    i = start
    while i < len(lines) and len(body) < MAX_BODY_LINES and not claimed[i]:
        line = strip(lines[i])
        if line is None or _ends_body(line):
            break
        body.append(line)
        i += 1
    return body


def _lines_with_words(text: str, words: tuple[str, ...] = _WORDS) -> list[int]:
    """The numbers of the lines of `text` that hold one of `words`, found by searching the whole text at C speed
    (a line count between hits, not a look at each line): a test log of 40,000 lines has a few."""
    found: set[int] = set()
    for word in words:
        at, line, counted = text.find(word), 0, 0
        while at >= 0:
            line += text.count("\n", counted, at)
            counted = at
            found.add(line)
            at = text.find(word, text.find("\n", at) + 1 or len(text))
    return sorted(found)


def extract(lines: list[str], claimed: list[bool]) -> list[ErrorEvent]:
    events: list[ErrorEvent] = []
    whole = "\n".join(lines)
    for i in _lines_with_words(whole):
        raw = lines[i]
        if claimed[i]:
            continue
        bare = raw.lstrip()
        if bare.startswith(_SUMMARY_STARTS) or (bare.startswith("warning: `") and " generated " in bare):
            claimed[i] = True
            continue
        header = diagnostic_header(raw)
        if header is None:
            continue
        at, severity, code, text = header
        if code is not None and not (code[:1] == "E" and code[1:].isdecimal()) and severity == "error":
            continue  # `error[something]: ...`: not an error code rustc gives
        if severity == "error" and (old := _old_format(raw[:at], text, code)) is not None:
            claimed[i] = True
            events.append(_compile_event(old[1], old[0], old[2], [], i))
            continue
        following = lines[i + 1] if i + 1 < len(lines) and not claimed[i + 1] else ""
        # rustc's own layout with no span: a bare gutter, then its notes (`error: linker `link.exe` not found`,
        # `  |`, `  = note: program not found`); cargo's and other tools' `error: ` lines draw none.
        linker = severity == "error" and (text.startswith(_LINKER_FAILURE) or _spanless(lines, i + 1, claimed))
        if code is None and "--> " not in following and not linker:
            continue  # not rustc's (cargo's `error: test failed`, a tool's own `error: ...`): one look at the next line
        strip = prefix_stripper(raw[:at])  # an indent too: a quoted log's next header, as indented, ends the body
        after = strip(following) if following else None
        location = span_line(after) if after else None
        if code is None and location is None and not linker:
            continue
        body = _body(lines, i + 1, claimed, strip)
        for k in range(i, i + 1 + len(body)):
            claimed[k] = True
        if severity == "warning":
            continue  # a warning is no error: a build with warnings only is a green build
        events.append(_compile_event(text, code, location, body, i))
    if " --> " in whole:
        events += _headless(lines, claimed, _lines_with_words(whole, (" --> ",)))
        events.sort(key=lambda event: event.line_number)
    return events


def _old_format(prefix: str, text: str, code: str | None) -> tuple[str | None, str, Frame] | None:
    """rustc before 1.12 (2016), still in old issues: `src/main.rs:1:1: 1:5 error: TEXT [E0106]`, the span before
    the header and the code after the text. Its code, its text and its span, or None for any other layout."""
    place, _, span = prefix.rstrip().rpartition(" ")
    start, _, end = span.partition(":")
    parts = place.rstrip(":").rsplit(":", 2)
    if not (start.isdecimal() and end.isdecimal() and len(parts) == 3 and parts[0].endswith(".rs")):
        return None
    if not (parts[1].isdecimal() and parts[2].isdecimal() and place.endswith(":")):
        return None
    words, bracket, last = text.rpartition(" [")
    if code is None and bracket and last.endswith("]") and last[:1] == "E" and last[1:-1].isdecimal():
        code, text = last[:-1], words
    return code, text, Frame(file=parts[0].strip(), line=int(parts[1]), column=int(parts[2]))


def _spanless(lines: list[str], i: int, claimed: list[bool]) -> bool:
    """The lines from `i` are rustc's drawing of a diagnostic without a span: `|` alone, then `= note: ...`."""
    if i + 1 >= len(lines) or claimed[i] or lines[i].strip() != "|":
        return False
    return lines[i + 1].strip().startswith(("= note: ", "= help: "))


def _compile_event(text: str, code: str | None, location: Frame | None, body: list[str], i: int) -> ErrorEvent:
    """One error diagnostic's event: its header's text and code, its span (with the code rustc printed there)."""
    if location is not None:
        location = location._replace(code=_printed_code(body[1:], location.line or 0))
    return ErrorEvent(
        language="rust",
        error_type="compile",
        message=text,
        location=location,
        user_frame=user_frame([location], "rust", innermost_first=True) if location else None,
        extractor="rustc",
        line_number=i + 1,
        code=code,
        detail=_detail(body),
    )


def _headless(lines: list[str], claimed: list[bool], spans: list[int]) -> list[ErrorEvent]:
    """A diagnostic whose header lost its start in the copy (`rror[E0382]: use of moved value`, or `mismatched
    types` with no `error[E0308]: ` before it): the line above a span that rustc's drawing follows. Its code is
    the header's, else the one the run's summary names when it names one only (`For more information about this
    error, try `rustc --explain E0308``); without either, nothing says it was an error rather than a warning.
    `spans`: the lines that hold ` --> `; those of the diagnostics read whole are claimed."""
    if not spans:
        return []
    named = _summary_codes(lines)
    events: list[ErrorEvent] = []
    for i in spans:
        if not 0 < i < len(lines) - 1 or claimed[i] or claimed[i - 1] or _gutter(lines[i + 1]) is None:
            continue
        location = span_line(lines[i])
        head = lines[i - 1].strip()
        if location is None or not head or head.startswith(("note", "help", "= ", "|", "-->", "::: ")):
            continue
        code, text = _cut_header(head)
        if code is None and len(named) == 1:
            code = next(iter(named))
        if code is None:
            continue
        body = _body(lines, i, claimed, prefix_stripper(""))
        for k in range(i - 1, i + len(body)):
            claimed[k] = True
        events.append(_compile_event(text, code, location, body, i - 1))
    return events


def _cut_header(head: str) -> tuple[str | None, str]:
    """`rror[E0382]: text` (a header that lost the start of `error`): its code and text; else no code, the line."""
    word, bracket, rest = head.partition("[")
    code, close, text = rest.partition("]: ")
    if bracket and close and "error".endswith(word) and code[:1] == "E" and code[1:].isdecimal() and text.strip():
        return code, text.strip()
    return None, head


def _summary_codes(lines: list[str]) -> set[str]:
    """The error codes rustc's summary lines name (`try `rustc --explain E0308``, `explanations: E0382, E0499.`)."""
    codes: set[str] = set()
    for line in lines:
        bare = line.strip()
        if bare.startswith(_NAMING_CODES):
            for word in bare.replace("`", " ").replace(",", " ").replace(".", " ").split():
                if word[:1] == "E" and len(word) == 5 and word[1:].isdecimal():
                    codes.add(word)
    return codes
