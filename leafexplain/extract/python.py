"""Find Python tracebacks: frames, chained exceptions, exception groups, SyntaxError, warnings."""

from __future__ import annotations

from leafexplain.extract.common import (
    BARE_EXCEPTION,
    CLIPPED_EXCEPTION_LINE,
    EXCEPTION_LINE,
    MODULE_EXCEPTION_LINE,
    QUALIFIED_EXCEPTION,
    LastError,
    LineStripper,
    another_program,
    prefix_stripper,
    short_class,
    trim_blank,
    user_frame,
)
from leafexplain.extract.oserror import english_os_error
from leafexplain.models import ErrorEvent, Frame
from leafexplain.regex import lazy_regex

# `T?raceback`: a paste that lost its first character is still a traceback.
TRACEBACK = lazy_regex(r"(?:Exception Group )?T?raceback \(most recent call last\):\s*$")
# What may stand where a traceback's frames end: the exception line in its usual shape first.
AFTER_FRAMES = (EXCEPTION_LINE, CLIPPED_EXCEPTION_LINE, MODULE_EXCEPTION_LINE)
GROUP_ANCHOR = lazy_regex(r"^(?P<indent>\s*)\+ Exception Group Traceback \(most recent call last\):\s*$")
FILE_LINE = lazy_regex(r'^\s*File "(?P<file>[^"]+)", line (?P<line>\d+)(?:, in (?P<function>.+?))?\s*$')
WARNING_LINE = lazy_regex(r"^(?P<file>\S.*?):(?P<line>\d+): (?P<type>[A-Z]\w*Warning): (?P<message>.*)$")
# Before a bare exception line: indentation, markdown quote marks, a `[tag]:` (a rank, a logger).
BARE_PREFIX = lazy_regex(r"^(?P<prefix>\s*(?:>\s*)*(?:\[[^\]]{1,40}\]:?\s*)?)")
SYNTAX_TYPES = ("SyntaxError", "IndentationError", "TabError")
CAUSE = "The above exception was the direct cause of the following exception:"
CONTEXT = "During handling of the above exception, another exception occurred:"
MAX_MESSAGE_LINES = 200
# JAX's wrappers of the error a user's code raised, and the notes it prints around them: the error is the one
# they carry (`UnfilteredStackTrace: jax._src.errors.X: msg`), the frames-removed note no error of its own.
JAX_WRAPPERS = frozenset({"UnfilteredStackTrace", "SimplifiedTraceback"})
JAX_NOTES = (
    "For simplicity, JAX has removed its internal frames",
    "The stack trace below excludes JAX-internal frames.",
    "The preceding is the original exception that occurred, unmodified.",
)
# Python 2's report of an exception in `__del__` or a callback: `Exception KeyError: 'x' in <function f> ignored`.
PY2_IGNORED = lazy_regex(
    r"^Exception (?P<type>(?:[A-Za-z_]\w*\.)*[A-Za-z_]\w*): (?P<message>.*?) in (?P<where><.*>|\S+) ignored\s*$"
)
_QUOTED_REPR = lazy_regex(r"""^(?:\w+\()?(?P<q>["'])(?P<inner>.*)(?P=q),?\)?$""")
# Lines that end a message even without a blank line before them: pytest's rules and summaries.
_CARETS = lazy_regex(r"[\^~\s]+")  # the markers under a frame's code
_BOX_LINE = lazy_regex(r"^\s*(\+[-+ 0-9.]*-|\+ |\| ?)(.*)$")  # an exception group's box
REPORT_LINE = lazy_regex(r"^(?:[=_-]{5,}|(?:FAILED|ERROR|PASSED) \S)")


def _continuation(lines: list[str], i: int, strip: LineStripper) -> tuple[list[str], int]:
    """Lines that carry on an exception message: up to the next traceback or report line.

    A blank line ends the message unless the message goes on after it, indented (as messages
    written as indented triple-quoted strings do).
    """
    out: list[str] = []
    while i < len(lines) and len(out) < MAX_MESSAGE_LINES:
        line = strip(lines[i])
        if (
            line is None
            or TRACEBACK.search(line)
            or line.startswith((CAUSE, CONTEXT))
            or REPORT_LINE.match(line)
            or (": " in line and WARNING_LINE.match(line))  # `sys:1: RuntimeWarning: ...` printed at exit
            or another_program(line)
            or (line.strip() and not line.strip(" `~"))  # the code mark that closes the paste (`` ` ``, ```` ``` ````)
        ):
            break
        if not line.strip():
            following = strip(lines[i + 1]) if i + 1 < len(lines) else None
            if not following or not following[:1].isspace() or TRACEBACK.search(following):
                break
        out.append(line)
        i += 1
    return out, i


_LOOKAHEAD = 3  # lines after an exception that say whether it is chained to the next (`_chain_after`)


def _chain_after(lines: list[str], i: int, strip: LineStripper) -> str | None:
    """Whether the exception that ended at line i is the cause or context of the next one."""
    for j in range(i, min(i + _LOOKAHEAD, len(lines))):
        line = strip(lines[j])
        if line is None:
            return None
        text = line.strip()
        if text == CAUSE:
            return "cause"
        if text == CONTEXT:
            return "context"
        if text:
            return None
    return None


def _per_line_prefix(prefix: str) -> str:
    """What stands before a traceback's header and so before each of its lines (a timestamp, `[rank0]:`), or ""
    for a code mark that opens the paste only (`` `Traceback (most recent call last):``, ```` ```Traceback ````)."""
    return "" if prefix.strip(" `~") == "" else prefix


def _wrapped_file_line(line: str, lines: list[str], i: int, strip: LineStripper) -> str | None:
    """A `File "...", line N, in f` line a console of 80 columns wrapped (`File "C:\\...\\ma` then `il.py", line
    62, in f`): the two joined, when the next line completes it."""
    if i + 1 >= len(lines) or not line.lstrip().startswith('File "') or '", line ' in line:
        return None
    following = strip(lines[i + 1])
    if following is None or following[:1].isspace() or '", line ' not in following:
        return None
    joined = line + following
    return joined if FILE_LINE.match(joined) else None


def _parse_traceback(lines: list[str], i: int, strip: LineStripper) -> tuple[list[Frame], int]:
    """Frames from the line after the header up to the exception line (returned as index)."""
    frames: list[Frame] = []
    while i < len(lines):
        line = strip(lines[i])
        if line is None:
            break
        wrapped = _wrapped_file_line(line, lines, i, strip)
        if wrapped is not None:
            line = wrapped
            i += 1
        fm = FILE_LINE.match(line)
        if fm:
            frames.append(Frame(file=fm.group("file"), line=int(fm.group("line")), function=fm.group("function")))
            i += 1
            continue
        if line.startswith((" ", "\t")) and line.strip():
            # Source lines, caret/tilde lines, `[Previous line repeated N more times]`.
            text = line.strip()
            if (
                frames
                and frames[-1].code is None
                and not _CARETS.fullmatch(text)
                and not text.startswith("[Previous line")
            ):
                last = frames[-1]
                frames[-1] = Frame(file=last.file, line=last.line, function=last.function, code=text)
            i += 1
            continue
        break
    return frames, i


def exception_event(
    error_type: str,
    message_lines: list[str],
    frames: list[Frame],
    start: int,
    chained: str | None,
    extractor: str,
) -> ErrorEvent:
    location = frames[-1] if frames else None
    # A warning is not an error, nor is an exception with nothing to say that led to another one
    # (a bare StopIteration before `generator raised StopIteration`): each counts only when a record explains it.
    # A warning raised with its traceback is one (`-W error`, pytest's filterwarnings = error): it ended the run.
    message = english_os_error(error_type, "\n".join(trim_blank(message_lines)).strip())
    warning = error_type.rsplit(".", 1)[-1].endswith("Warning") and extractor != "python-traceback"
    tentative = warning or (chained is not None and not message)
    return ErrorEvent(
        language="python",
        error_type=error_type,
        message=message,
        location=location,
        frames=tuple(frames),
        user_frame=user_frame(frames, "python", innermost_first=False),
        chained=chained,  # type: ignore[arg-type]
        extractor=extractor,
        line_number=start + 1,
        tentative=tentative,
    )


def _nested(event: ErrorEvent) -> list[ErrorEvent]:
    """An exception whose message's first line ends with a colon and goes on with an exception line carries that one
    (`BackendCompilerFailed: backend='inductor' raised:` then `ImportError: ...`): the nested one is an event of its
    own, read first, the cause of the one that carries it."""
    first, newline, rest = event.message.partition("\n")
    nested = BARE_EXCEPTION.match(rest.split("\n", 1)[0]) if newline and first.rstrip().endswith(":") else None
    if nested is None:
        return [event]
    inner_lines = [nested.group("message"), *rest.split("\n")[1:]]
    inner = exception_event(nested.group("type"), inner_lines, [], event.line_number - 1, "cause", event.extractor)
    return [inner._replace(tentative=False), event._replace(message=first.strip())]


def _jax_unwrapped(error_type: str, message: list[str]) -> tuple[str, list[str]] | None:
    """JAX's wrappers (JAX_WRAPPERS): the error they carry in their message, or None for the frames-removed note."""
    if short_class(error_type) not in JAX_WRAPPERS:
        return error_type, message
    inner = EXCEPTION_LINE.match(message[0]) if message else None
    if inner is None or not inner.group("message"):
        return None
    return inner.group("type"), [inner.group("message"), *message[1:]]


def _strip_group_markup(lines: list[str], start: int) -> tuple[list[str], int]:
    """The lines of an exception-group block with its `|` and `+--` drawing removed."""
    indent = len(lines[start]) - len(lines[start].lstrip())
    out: list[str] = []
    i = start
    while i < len(lines):
        line = lines[i]
        body = line[indent:] if line[:indent].isspace() or indent == 0 else None
        if body is None:
            break
        m = _BOX_LINE.match(body)
        if not m:
            break
        drawing = m.group(1)
        out.append("" if drawing.startswith("+") and drawing != "+ " else m.group(2))
        i += 1
    return out, i


def extract(lines: list[str], claimed: list[bool], offset: int = 0) -> list[ErrorEvent]:
    events: list[ErrorEvent] = []
    last = LastError(_LOOKAHEAD)
    i = 0
    while i < len(lines):
        if claimed[i]:
            i += 1
            continue
        line = lines[i]
        copied = last.copy_at(lines, i, claimed)
        if copied:
            events.append(last.event._replace(line_number=offset + i + 1))  # type: ignore[union-attr]
            i += copied
            continue
        if line[:1] in "FT" and line.startswith(JAX_NOTES):
            claimed[i] = True  # JAX's note about the frames it removed: no error of its own
            i += 1
            continue
        group = GROUP_ANCHOR.match(line) if "Traceback" in line else None
        if group:
            block, end = _strip_group_markup(lines, i)
            inner_claimed = [False] * len(block)
            events.extend(extract(block, inner_claimed, offset + i))
            events.extend(extract_bare(block, inner_claimed, offset + i))
            for k in range(i, end):
                claimed[k] = True
            i = max(end, i + 1)
            continue
        tb = TRACEBACK.search(line) if "raceback (most" in line else None
        if tb:
            start = i
            strip = prefix_stripper(_per_line_prefix(line[: tb.start()]))
            frames, j = _parse_traceback(lines, i + 1, strip)
            exc_line = strip(lines[j]) if j < len(lines) else None
            em = next((m for shape in AFTER_FRAMES if (m := shape.match(exc_line))), None) if exc_line else None
            if em is None:
                i += 1
                continue
            more, end = _continuation(lines, j + 1, strip)
            for k in range(start, end):
                claimed[k] = True
            carried = _jax_unwrapped(em.group("type"), [em.group("message") or "", *more])
            if carried is None:
                i = end
                continue
            event = exception_event(
                carried[0], carried[1], frames, offset + start, _chain_after(lines, end, strip), "python-traceback"
            )
            events.extend(_nested(event))
            last.remember(lines, start, end, event)
            i = end
            continue
        fm = FILE_LINE.match(line) if 'File "' in line else None
        if fm and fm.group("function") is None:
            # A SyntaxError in the main script comes without a Traceback header.
            for j in range(i + 1, min(i + 6, len(lines))):
                em = EXCEPTION_LINE.match(lines[j])
                if em and em.group("type").split(".")[-1] in SYNTAX_TYPES:
                    frame = Frame(file=fm.group("file"), line=int(fm.group("line")), code=lines[i + 1].strip() or None)
                    for k in range(i, j + 1):
                        claimed[k] = True
                    events.append(
                        exception_event(
                            em.group("type"), [em.group("message") or ""], [frame], offset + i, None, "python-syntax"
                        )
                    )
                    i = j
                    break
            i += 1
            continue
        wm = WARNING_LINE.match(line.strip()) if "Warning: " in line else None
        if wm:
            frame = Frame(file=wm.group("file"), line=int(wm.group("line")))
            claimed[i] = True
            events.append(
                exception_event(wm.group("type"), [wm.group("message")], [frame], offset + i, None, "python-warning")
            )
        i += 1
    return events


def _indented_only(strip: LineStripper) -> LineStripper:
    """Only indented lines carry on a bare message: the next log line (not indented) ends it at once, rather than
    after a look 200 lines ahead for every bare line of a log made of them."""

    def indented(line: str) -> str | None:
        text = strip(line)
        return text if text is None or not text.strip() or text[:1].isspace() else None

    return indented


def extract_bare(lines: list[str], claimed: list[bool], offset: int = 0) -> list[ErrorEvent]:
    """`RuntimeError: ...` lines with no traceback around them (pasted from a chat, logged)."""
    events: list[ErrorEvent] = []
    # A line seen before, that carried on over no other line, is the same event again: counted, not parsed
    # (a log of one error repeated a million times is read at the speed of a dictionary lookup per line).
    seen: dict[str, int] = {}
    repeats: dict[int, int] = {}
    i, count = 0, len(lines)
    while i < count:
        if claimed[i]:
            i += 1
            continue
        line = lines[i]
        if ": " not in line and "Error:" not in line:  # `RuntimeError:CUDA error` has no space after its colon
            i += 1
            continue
        known = seen.get(line)
        # The next line does not carry the message on (not blank, not indented): this line is the event again.
        if known is not None and (i + 1 == count or (lines[i + 1] and not lines[i + 1][:1].isspace())):
            claimed[i] = True
            repeats[known] = repeats.get(known, 1) + 1
            i += 1
            continue
        m = BARE_PREFIX.match(line)
        prefix = m.group("prefix") if m else ""
        body = line[len(prefix) :]
        bare = BARE_EXCEPTION.match(body)
        if not bare:
            # The other shapes of a bare exception, each tested by its first letter before its regex: most lines of
            # a log are none of them, and are passed over at the cost of one slice.
            head = body[:1]
            if head == "E" and (ignored := _python2_ignored(body, offset + i)):
                claimed[i] = True
                events.append(ignored)
                i += 1
                continue
            # A library's class named in full: its lowercase module, a dot before the colon.
            if head.islower() and -1 < body.find(".") < body.find(": "):
                bare = QUALIFIED_EXCEPTION.match(body)
        if not bare:
            i += 1
            continue
        strip = prefix_stripper(prefix) if prefix.strip() else (lambda s: s)
        quoted = ">" in prefix  # a markdown quote: the message goes on in the quoted lines after it
        more, end = _continuation(lines, i + 1, _quoted_only(strip) if quoted else _indented_only(strip))
        if not quoted:
            # Only indented lines carry on a bare message: a blank line ends it too.
            more = more[: next((n for n, text in enumerate(more) if not text[:1].isspace()), len(more))]
        end = i + 1 + len(more)
        for k in range(i, end):
            claimed[k] = True
        carried = _jax_unwrapped(bare.group("type"), [bare.group("message"), *more])
        if carried is None:
            i = end
            continue
        if not more:
            seen[line] = len(events)
        events.append(exception_event(carried[0], carried[1], [], offset + i, None, "python-bare"))
        i = end
    events = _carried_first(events)
    return [event._replace(count=repeats[n]) if n in repeats else event for n, event in enumerate(events)]


def _python2_ignored(line: str, start: int) -> ErrorEvent | None:
    """Python 2's `Exception KeyError: 'x' in <function f> ignored` (PY2_IGNORED), its message unquoted."""
    if not line.startswith("Exception ") or not line.rstrip().endswith(" ignored"):
        return None
    m = PY2_IGNORED.match(line)
    if m is None:
        return None
    message = m.group("message")
    quoted = _QUOTED_REPR.match(message)
    return exception_event(
        m.group("type"), [quoted.group("inner") if quoted else message], [], start, None, "python2-ignored"
    )


def _carried_first(events: list[ErrorEvent]) -> list[ErrorEvent]:
    """A bare exception whose message ends with a colon, the next line another one: that one is what it carries
    (`torch._dynamo.exc.BackendCompilerFailed: backend='inductor' raised:` then `ImportError: ...`). It is read first,
    at the carrier's line, as the cause of the carrier (`_nested` for a traceback's)."""
    out = list(events)
    for n in range(len(out) - 1):
        carrier, inner = out[n], out[n + 1]
        if carrier.message.endswith(":") and inner.line_number == carrier.line_number + 1 and not carrier.chained:
            out[n] = inner._replace(chained="cause", line_number=carrier.line_number)
            out[n + 1] = carrier
    return out


def _quoted_only(strip: LineStripper) -> LineStripper:
    """In a markdown quote (`> `), the quoted lines after a bare exception carry its message on, up to a blank quoted
    line or another exception line."""

    def quoted(line: str) -> str | None:
        text = strip(line)
        if text is None or BARE_EXCEPTION.match(text.lstrip()):
            return None
        return text

    return quoted


def claim_doctest_expectations(lines: list[str], claimed: list[bool]) -> list[ErrorEvent]:
    """doctest's report of what an example should print (`Expecting:` in a verbose run, `Expected:` above a
    failure's `Got:`): a traceback there is the expected output of a passing example, not an error.
    Claims those indented lines; finds no event."""
    inside = False
    for i, line in enumerate(lines):
        if line in ("Expecting:", "Expected:"):
            inside = True
        elif inside and line.startswith((" ", "\t")):
            claimed[i] = True
        else:
            inside = False
    return []
