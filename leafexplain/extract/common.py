"""Shared pieces of the extractors: the exception-line regexes, line prefixes, the user's frame."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from leafexplain.libraries import is_library_frame
from leafexplain.models import ErrorEvent, Frame
from leafexplain.regex import compiled, lazy_regex

LineStripper = Callable[[str], "str | None"]

# An exception line: a (possibly dotted) class name, then the message. The class's last part
# starts with a capital or an underscore, as exception classes do.
# A message may follow the colon with no space (`RuntimeError:CUDA error`), never a second colon (`Foo::bar`).
EXCEPTION_LINE = lazy_regex(r"^(?P<type>(?:[A-Za-z_]\w*\.)*(?:[A-Z_]\w*))(?::(?!:) ?(?P<message>.*)|:?)\s*$")
# The exception line of a paste that lost its first character (`untimeError: ...`), read only where
# a traceback's frames say an exception line must follow.
CLIPPED_EXCEPTION_LINE = lazy_regex(r"^(?P<type>[a-z]\w*(?:Error|Exception|Warning))(?:: (?P<message>.*)|:?)\s*$")
# A class some C modules give a lowercase name (`re.error`, `socket.timeout`, `struct.error`): always
# dotted, and read only where a traceback's frames say an exception line must follow.
MODULE_EXCEPTION_LINE = lazy_regex(r"^(?P<type>(?:[A-Za-z_]\w*\.)+[a-z_]\w*)(?:: (?P<message>.*)|:?)\s*$")
BARE_EXCEPTION = lazy_regex(
    r"^(?P<type>(?:[A-Za-z_]\w*\.)*[A-Z_]\w*(?:Error|Exception|Warning|Interrupt|Exit|Iteration|Fault))"
    r":(?!:) ?(?P<message>\S.*)$"
)
# A class of a library's own, named in full, with no `Error`/`Exception` in its name
# (`torch._dynamo.exc.BackendCompilerFailed: ...`): lowercase module parts, a CamelCase class of two words or
# more, so that a logger's name (`uvicorn.error: ...`) or a sentence is none.
QUALIFIED_EXCEPTION = lazy_regex(
    r"^(?P<type>(?:[a-z_][a-z0-9_]*\.)+[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+): (?P<message>\S.*)$"
)


# Lines written once an error was out, by the program going on (a traceback printed by
# `logging.exception` or `traceback.print_exc()`) or by another one: a CI runner's own lines (GitHub
# Actions' `##[error]` and step result, GitLab's job result; not a workflow command such as `::error::`,
# which a runner never shows as written and a message may well hold), a log record that starts with its
# time (ISO 8601, or glog's `E1130 12:00:01` as torch's elastic launcher writes) or with Python logging's
# default `LEVEL:logger:`, a tqdm progress bar. A message's own lines do not look so.
_RUNNER_LINES = ("##[", "Error: Process completed with exit code", "ERROR: Job failed")
_LOG_LEVELS = ("DEBUG:", "INFO:", "WARNING:", "ERROR:", "CRITICAL:")
_LOG_TIME = lazy_regex(r"\[?\d{4}-\d\d-\d\d[T ]\d\d:\d\d|[IWEF]\d{4} \d\d:\d\d:\d\d")
_LOG_LEVEL = lazy_regex(r"(?:DEBUG|INFO|WARNING|ERROR|CRITICAL):[\w.<>-]+:")
_DIGIT_RUNS = lazy_regex(r"(\d+)")
_PROGRESS_BAR = lazy_regex(r"\d%\|[^|\n]*\| *\d+/\d+ \[")  # no `|` inside the bar: linear on any line


def another_program(line: str) -> bool:
    """The line is another program's, or the program's own going on: it ends an error's message."""
    if line.startswith(_RUNNER_LINES):
        return True
    if line.startswith(_LOG_LEVELS):
        return bool(_LOG_LEVEL.match(line))
    if "%|" in line:
        return bool(_PROGRESS_BAR.search(line))
    lead = line[:2]  # the regex only where a time could start: `2`, `[2`, `E1`
    return (lead[:1].isdigit() or lead[1:].isdigit()) and bool(_LOG_TIME.match(line))


def exception_class(text: str) -> bool:
    """`AssertionError`, `json.JSONDecodeError`: the name of an exception class and nothing else."""
    return BARE_EXCEPTION.match(text + ": x") is not None


def short_class(name: str | None) -> str:
    """`json.decoder.JSONDecodeError` -> `JSONDecodeError`: how a class is compared, wherever it was printed from."""
    return (name or "").rsplit(".", 1)[-1]


def prefix_stripper(prefix: str) -> LineStripper:
    """Strip a per-line prefix (CI timestamp, `[rank0]:`) seen on an anchor line.

    Later lines carry the same prefix or one of the same shape (the digits change: a timestamp,
    another rank). A line without it does not belong to the block: None.
    """
    if not prefix:
        return lambda line: line
    if prefix.isspace():
        width = len(prefix)

        def strip_indent(line: str) -> str | None:
            if not line.strip():
                return ""
            head = len(line) - len(line.lstrip())
            return line[min(head, width) :] if head else None

        return strip_indent
    shape = compiled(
        "".join(r"\d+" if part.isdigit() else re.escape(part) for part in _DIGIT_RUNS.split(prefix) if part)
    )

    def strip_shape(line: str) -> str | None:
        if line.startswith(prefix):
            return line[len(prefix) :]
        m = shape.match(line)
        if m:
            return line[m.end() :]
        return "" if not line.strip() else None

    return strip_shape


def user_frame(frames: Sequence[Frame], language: str, innermost_first: bool) -> Frame | None:
    """The innermost frame that is the user's own code, not a library's."""
    ordered = frames if innermost_first else list(reversed(frames))
    for frame in ordered:
        if frame.file and not is_library_frame(frame, language):
            return frame
    return None


def trim_blank(lines: list[str]) -> list[str]:
    while lines and not lines[-1].strip():
        lines.pop()
    return lines


def repeats(lines: list[str], i: int, block: list[str]) -> bool:
    """`lines` hold `block` again from `i` on: a copy of an error read just before (and of the lines after it)."""
    return lines[i : i + len(block)] == block


class LastError:
    """The error an extractor read last: its lines and the `lookahead` lines after them (all that decided where
    it ended), the state it was read in, and its event. A log that repeats one error thousands of times reads
    each copy as one comparison of lines, not one parse."""

    __slots__ = ("block", "event", "lookahead", "state")

    def __init__(self, lookahead: int) -> None:
        self.lookahead = lookahead
        self.block: list[str] = []
        self.state: object = None
        self.event: ErrorEvent | None = None

    def copy_at(self, lines: list[str], i: int, claimed: list[bool], state: object = None) -> int:
        """How many lines from `i` are a copy of it, in the same state, now claimed (its event is `event`); 0:
        none."""
        block = self.block
        if self.event is None or lines[i] != block[0] or state != self.state:
            return 0
        length = len(block) - self.lookahead
        if not repeats(lines, i, block) or any(claimed[i : i + length]):
            return 0
        for k in range(i, i + length):
            claimed[k] = True
        return length

    def remember(self, lines: list[str], start: int, end: int, event: ErrorEvent, state: object = None) -> None:
        """The error read at lines[start:end]: a copy needs the same lines after it, so they must be there."""
        if end + self.lookahead <= len(lines):
            self.block, self.state, self.event = lines[start : end + self.lookahead], state, event
