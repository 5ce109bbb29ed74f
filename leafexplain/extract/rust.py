"""Find Rust panics: every header format since 1.0, multi-line messages, backtraces, cargo test."""

from __future__ import annotations

import re

from leafexplain.extract.clues import CARGO_VERBS, RUST_PANIC
from leafexplain.extract.common import (
    LastError,
    LineStripper,
    another_program,
    prefix_stripper,
    trim_blank,
    user_frame,
)
from leafexplain.models import ErrorEvent, Frame
from leafexplain.regex import lazy_regex

_QUOTES = "'\u2018\u2019"  # pasted text turns quotes typographic
Q = f"[{_QUOTES}]"
# `t?hread`: a paste that lost its first character (`hread 'main' panicked at`) is still a panic.
THREAD = rf"t?hread {Q}(?P<thread>[^'\u2018\u2019]*){Q}"
# The runtime aborts without a panic for these: no message line, no location.
ABORT = lazy_regex(
    rf"^\s*(?:{THREAD}(?: \(\d+\))? (?P<overflow>has overflowed its stack)"
    r"|(?P<alloc>memory allocation of \d+ bytes failed))\s*$"
)
# `fn main() -> Result<..>` returning an error prints its Debug form: a guess, kept when a record explains it.
MAIN_ERROR = lazy_regex(r"^Error: (?P<message>[A-Z]\w*(?: \{ | ?\().*)$")
# Before Rust 1.42 a panic inside a std macro (assert_eq!) named the macro as its place:
# `<::std::macros::panic macros>:5:6`, with a space in it.
OLD_FILE = r"(?P<file>\S+?|<[^>\n]+>)"
OLD_ONE_LINE = lazy_regex(rf"^{Q}(?P<msg>.*){Q}, {OLD_FILE}:(?P<line>\d+):(?P<col>\d+)\s*$", re.S)
OLD_TAIL = lazy_regex(rf"^(?P<msg>.*){Q}, {OLD_FILE}:(?P<line>\d+):(?P<col>\d+)\s*$")
_QUOTE = lazy_regex(Q)
TEST_HEADER = lazy_regex(r"^---- (?P<test>\S+) stdout ----$")
# The test harness at work: its first line, a test's result line, or the end of a test's own output.
HARNESS_SECTION_END = lazy_regex(r"^failures:$|^test result: ")
# Lines that end a panic's message: the backtrace note or header, the test harness's and cargo's own lines.
_TERMINATOR_STARTS = (
    "note: run with `RUST_BACKTRACE",
    "stack backtrace:",
    "test result: ",
    "error: test failed",
    "error: process didn't exit",
    "   Doc-tests ",
    # The runtime's abort after a panic it cannot unwind: extract/fatal.py reads it, and the shell's line after it.
    "thread caused non-unwinding panic. aborting.",
    "thread panicked while p",
    "fatal runtime error: ",
)


# The panic's header and the place after it are read with string tests, not regexes: every Rust run reads
# them, and compiling their regexes cost more than all the searching.
Header = tuple[int, str, str, str]  # where `thread` starts, the thread's name, its id (or ""), and the rest


def panic_header(line: str) -> Header | None:
    """`thread 'NAME' (ID) panicked at REST` anywhere in the line (`hread` too: a paste that lost its first
    character): the first such header, as a search for THREAD, an optional ` (ID)`, ` panicked at ` finds it."""
    at = line.find("hread ")
    while at >= 0:
        name_at = at + 7
        if name_at <= len(line) and line[at + 6] in _QUOTES:
            close = min((q for q in map(line.find, _QUOTES, (name_at,) * 3) if q >= 0), default=-1)
            after, tid = line[close + 1 :], ""
            if close >= 0 and after.startswith(" ("):
                digits, paren, tail = after[2:].partition(")")
                if paren and digits.isdecimal():
                    after, tid = tail, digits
            if close >= 0 and after.startswith(" panicked at "):
                start = at - 1 if line[at - 1 : at] == "t" else at
                return start, line[name_at:close], tid, after[13:]
        at = line.find("hread ", at + 1)
    return _threadless_header(line)


# What may stand before a header with no thread: wasm's console panic hook prints `panicked at` alone, Safari's
# console `[Error] panicked at`, a runtime `thread panicked at` for a thread with no name, and a logger or a custom
# panic hook re-logs the hook's text after its own (burn's application logger: `... ERROR ...: PANIC => panicked at`).
_THREADLESS = ("thread panicked at ", "panicked at ")


def _threadless_header(line: str) -> Header | None:
    """`panicked at REST` with no thread named: a header only where REST is a panic's place in either form (the place
    alone, since Rust 1.73; a quoted message, before), so that prose (`it panicked at startup`) is none. Its thread
    is "", and a header whose old-form message never reaches its place is dropped by the reader (`extract`)."""
    for lead in _THREADLESS:
        at = line.find(lead)
        if at < 0 or (at and not line[at - 1].isspace() and line[at - 1] not in ">]"):
            continue
        rest = line[at + len(lead) :]
        if location_line(rest) or rest[:1] in _QUOTES or joined_place(rest):
            return at, "", "", rest
    return None


def location_line(text: str) -> tuple[str, str, str] | None:
    """`FILE:LINE:COL:` and nothing after it but spaces: the place a panic's header ends with since Rust 1.73."""
    body = text.rstrip()
    if not body.endswith(":"):
        return None
    parts = body[:-1].rsplit(":", 2)
    if len(parts) != 3 or not parts[1].isdecimal() or not parts[2].isdecimal():
        return None
    file = parts[0]
    return (file, parts[1], parts[2]) if file[:1] and not file[:1].isspace() else None


def joined_place(text: str) -> tuple[str, str, str, str] | None:
    """`FILE.rs:LINE:COL: MESSAGE`: the place and the message on one line, as a browser's console or a re-wrapped
    paste joins the two lines a panic's header has had since Rust 1.73."""
    at = text.find(".rs:")
    if at < 1 or text[:1].isspace():
        return None
    line, colon, rest = text[at + 4 :].partition(":")
    col, space, message = rest.partition(": ")
    if not (colon and space and line.isdecimal() and col.isdecimal() and message.strip()):
        return None
    return text[: at + 3], line, col, message.strip()


def harness_start(line: str) -> bool:
    """The test harness's first line (`running 3 tests`) or a test's result line (`test name ... `): string
    tests, not a regex, as for `ends_message`."""
    if line.startswith("running "):
        count, _, noun = line[8:].partition(" ")
        return count.isdecimal() and noun in ("test", "tests")
    if line.startswith("test "):
        name, _, after = line[5:].partition(" ")
        return bool(name) and name.split() == [name] and after.startswith("... ")
    return False


def ends_message(line: str) -> bool:
    """The line ends a panic's message (string tests, not a regex: this runs on every panic's every line)."""
    if line.startswith(_TERMINATOR_STARTS):
        return True
    if line.startswith("failures:"):
        return not line[9:].strip()
    if line.startswith("---- "):  # `---- tests::name stdout ----`
        name, _, rest = line[5:].partition(" ")
        return bool(name) and rest.startswith(("stdout ----", "stderr ----"))
    return line[:1].isspace() and line.lstrip().startswith("Running ")


# How such a line can begin: cargo right-aligns its verb (spaces first), or a paste lost the spaces.
_CARGO_LEADS = frozenset(" \t" + "".join(verb[0] for verb in CARGO_VERBS))


def cargo_status(line: str) -> bool:
    if line[:1] not in _CARGO_LEADS:  # most lines of a long log: one set lookup
        return False
    verb, _, subject = line.lstrip().partition(" ")
    return verb in CARGO_VERBS and subject[:1] not in ("", " ")


FRAME_FN = lazy_regex(r"^\s*(?P<index>\d+):\s+(?:0x[0-9a-f]+ - )?(?P<function>.+?)\s*$")
FRAME_AT = lazy_regex(r"^\s+at (?P<file>.+?):(?P<line>\d+)(?::(?P<col>\d+))?\s*$")
MAX_MESSAGE_LINES = 200


def _location(file: str, line: str, col: str | None) -> Frame:
    return Frame(file=file, line=int(line), column=int(col) if col else None)


def _parse_backtrace(lines: list[str], start: int, strip) -> tuple[list[Frame], int]:
    """Frames after `stack backtrace:`, innermost first; returns them and the next line index."""
    frames: list[Frame] = []
    i = start
    while i < len(lines):
        line = strip(lines[i])
        if line is None:
            break
        fn = FRAME_FN.match(line)
        if fn:
            frames.append(Frame(file="", function=fn.group("function")))
            i += 1
            continue
        at = FRAME_AT.match(line)
        if at and frames:
            last = frames[-1]
            frames[-1] = Frame(
                file=at.group("file"),
                line=int(at.group("line")),
                column=int(at.group("col")) if at.group("col") else None,
                function=last.function,
            )
            i += 1
            continue
        if line.startswith("note: Some details are omitted"):
            i += 1
        break
    return frames, i


def _label_only(prefix: str, lines: list[str], following: int, strip: LineStripper) -> bool:
    """The text before a panic's header is a label of that line alone: not indentation or quote marks (which every
    line of the block carries), and the first line of text after the header does not carry it."""
    if not prefix.strip() or not prefix.strip(" \t>"):
        return False
    for line in lines[following : following + LOOKAHEAD]:
        if line.strip():
            return strip(line) is None
    return False


def _causes_follow(lines: list[str], i: int, strip: LineStripper) -> bool:
    """A blank line inside a panic's message, then `Caused by:` (wgpu's validation reports): the message goes on."""
    line = strip(lines[i]) if i < len(lines) else None
    return line is not None and line.strip() == "Caused by:"


def _abort_or_main_error(raw: str, i: int, test: str | None) -> ErrorEvent | None:
    """A stack overflow or failed allocation (the runtime aborts), or an error returned from main."""
    abort = ABORT.match(raw) if ("overflowed" in raw or "allocation" in raw) else None
    if abort:
        thread = abort.group("thread")
        message = abort.group("overflow") or abort.group("alloc")
        if thread is not None:
            message = f"thread '{thread}' {message}"
        return ErrorEvent("rust", "abort", message, extractor="rust-abort", thread=thread, test=test, line_number=i + 1)
    main_error = MAIN_ERROR.match(raw) if raw.startswith("Error: ") else None
    if main_error:
        return ErrorEvent(
            "rust", "error", main_error.group("message"), extractor="rust-main-error", line_number=i + 1, tentative=True
        )
    return None


LOOKAHEAD = 3  # lines after a panic's message that say whether a hint or a backtrace follows it
GUESSED_TEXT_CHARS = 1 << 20  # intake/stream.py's WHOLE_INPUT_BYTES: no larger input is read for guesses


def _may_hold_an_error(text: str) -> bool:
    """The words the loop below needs for any event (a panic's header, an abort, main's `Error: `), looked for
    in the whole text at once: a long Python log has none, and then no line of it needs a look of its own."""
    return any(word in text for word in RUST_PANIC[:-1]) or "\nError: " in "\n" + text  # main's, on a line of its own


def extract(lines: list[str], claimed: list[bool]) -> list[ErrorEvent]:
    text = "\n".join(lines)
    if not _may_hold_an_error(text):
        # Cargo's progress is claimed all the same, for the guesses read in a short input (a paragraph, a bare
        # message); a longer stretch (a window of a long log, over 1 MiB) is never read for guesses.
        if len(text) <= GUESSED_TEXT_CHARS and any(verb in text for verb in CARGO_VERBS):
            for n, line in enumerate(lines):
                if not claimed[n] and cargo_status(line):
                    claimed[n] = True
        return []
    events: list[ErrorEvent] = []
    test: str | None = None  # the test whose captured output this is (`---- name stdout ----`)
    harness = False  # in `cargo test` output: a panicking thread named other than main is the test's own
    last = LastError(LOOKAHEAD)
    i = 0
    while i < len(lines):
        if claimed[i]:
            i += 1
            continue
        raw = lines[i]
        header = TEST_HEADER.match(raw.strip()) if "---- " in raw else None
        if header:
            test, harness = header.group("test"), True
        elif not harness and raw.startswith(("running ", "test ")) and harness_start(raw.strip()):
            harness = True
        elif raw.startswith(("failures:", "test result: ")) and HARNESS_SECTION_END.match(raw.strip()):
            test = None
            harness = raw.startswith("failures:")  # the summary after it names tests, prints no panic
        copied = last.copy_at(lines, i, claimed, (test, harness))
        if copied:
            events.append(last.event._replace(line_number=i + 1))  # type: ignore[union-attr]
            i += copied
            continue
        m = panic_header(raw) if "panicked at" in raw else None
        if not m:
            # The words an abort or main's error needs, looked for here: a long log's every line passes.
            maybe = "overflowed" in raw or "allocation" in raw or raw.startswith("Error: ")
            found = _abort_or_main_error(raw, i, test) if maybe else None
            if found is not None:
                claimed[i] = True
                events.append(found)
            elif cargo_status(raw):
                claimed[i] = True  # cargo's progress, in every paste of a cargo run: never an error's wording
            i += 1
            continue
        start = i
        prefix = raw[: m[0]]
        # An indented header (a quoted log) does not make its message lines need that indent, nor does the
        # test harness's `test name ... ` printed before a panic on the same line (only that line has it).
        glued_to_test = prefix.startswith("test ") and harness_start(prefix)
        strip = prefix_stripper(prefix) if prefix.strip() and not glued_to_test else (lambda line: line)
        # A label only the header carries (a logger's record, a console's `[Error] `, a hook's `PANIC => `): the
        # message lines after it are the hook's text as it was, and the next record of the log ends them.
        relabelled = _label_only(prefix, lines, i + 1, strip)
        if relabelled:
            strip = lambda line: line  # noqa: E731
        rest = m[3]
        location: Frame | None = None
        message_lines: list[str] = []
        i += 1
        new = location_line(rest)
        joined = None if new or rest[:1] in _QUOTES else joined_place(rest)
        old = None if new or joined else OLD_ONE_LINE.match(rest)  # the pre-1.73 form: its regex only when needed
        if new or joined:
            location = _location(*(new or joined[:3]))  # type: ignore[index]
            message_lines = [joined[3]] if joined else []
            in_causes = False  # past a `Caused by:` line
            while i < len(lines) and len(message_lines) < MAX_MESSAGE_LINES:
                line = strip(lines[i])
                if line is None or ends_message(line) or panic_header(line) or (relabelled and another_program(line)):
                    break
                # wgpu indents the blank lines of its `Caused by:` list (`    ` before naga's report): they go on it.
                if not line.strip() and not (in_causes and line) and not _causes_follow(lines, i + 1, strip):
                    break
                in_causes = in_causes or line.strip() == "Caused by:"
                message_lines.append(line)
                i += 1
        elif old:
            location = _location(old.group("file"), old.group("line"), old.group("col"))
            message_lines = [old.group("msg")]
        elif _QUOTE.match(rest):
            # The pre-1.73 form with a message over several lines: it ends at `', file:line:col`.
            message_lines = [rest[1:]]
            j = i
            while j < len(lines) and j - i < MAX_MESSAGE_LINES:
                line = strip(lines[j])
                if line is None:
                    break
                tail = OLD_TAIL.match(line)
                if tail:
                    message_lines.append(tail.group("msg"))
                    location = _location(tail.group("file"), tail.group("line"), tail.group("col"))
                    i = j + 1
                    break
                message_lines.append(line)
                j += 1
            if location is None:
                message_lines = [rest[1:]]
        else:
            message_lines = [rest]
        frames: list[Frame] = []
        # After the message: perhaps the backtrace hint, perhaps a backtrace.
        j = i
        while j < len(lines) and j - i < LOOKAHEAD:
            line = strip(lines[j])
            if line is None:
                break
            if line.startswith("note: run with `RUST_BACKTRACE"):
                j += 1
                i = j  # the panic's own hint: claimed with it, never a paragraph of its own
                continue
            if line.strip() == "stack backtrace:":
                frames, j = _parse_backtrace(lines, j + 1, strip)
                i = j
            break
        if not m[1] and location is None:
            i = start + 1  # `panicked at '...` with no thread and no place: prose, not a header
            continue
        for k in range(start, i):
            claimed[k] = True
        thread = m[1] or None
        language = "rust"
        all_frames = tuple(frames)
        mine = user_frame(all_frames, language, innermost_first=True) if all_frames else None
        if mine is None and location is not None:
            mine = user_frame([location], language, innermost_first=True)
        event = ErrorEvent(
            language=language,
            error_type="panic",
            message="\n".join(trim_blank(message_lines)).strip("\n"),
            location=location,
            frames=all_frames,
            user_frame=mine,
            extractor="rust-panic",
            thread=thread,
            # A thread is a test only in the test harness's output: a worker thread elsewhere stays a thread.
            test=test or (thread if harness and thread not in ("main", "<unnamed>") else None),
            line_number=start + 1,
        )
        events.append(event)
        last.remember(lines, start, i, event, (test, harness))
    return events
