"""Find what VS Code's debugger shows when it stops on an exception: `Exception has occurred: <Class>`, in any locale.

Its exception popup, pasted, is the class on the header line (after the words of VS Code's language),
the message on the lines after it, then the frames, the innermost first:

    Exception has occurred: ValueError
    invalid literal for int() with base 10: 'a'
      File "/home/me/app.py", line 2, in parse
        return int(text)
      File "/home/me/app.py", line 5, in <module>
        parse("a")

debugpy may add `(note: full exception trace is shown but execution is paused at: ...)` after the class.
"""

from __future__ import annotations

from leafexplain.extract.clues import DEBUGGER_HEADERS as HEADERS
from leafexplain.extract.common import EXCEPTION_LINE
from leafexplain.extract.python import CAUSE, CONTEXT, FILE_LINE, exception_event
from leafexplain.models import ErrorEvent, Frame

NOTE = "(note: "
MAX_MESSAGE_LINES = 20
MAX_FRAME_LINES = 400


def _header_class(line: str) -> str | None:
    """The class a header line names, or None: the header's words, a class alone, perhaps debugpy's note."""
    text = line.strip()
    for header in HEADERS:
        if text.startswith(header):
            name = text[len(header) :].split(NOTE, 1)[0].strip()
            m = EXCEPTION_LINE.match(name)
            return name if m and m.group("message") is None and " " not in name else None
    return None


def extract(lines: list[str], claimed: list[bool]) -> list[ErrorEvent]:
    text = "\n".join(lines)
    if not any(header in text for header in HEADERS):  # the whole text at once: a log holds none of them
        return []
    events: list[ErrorEvent] = []
    i = 0
    while i < len(lines):
        error_type = None if claimed[i] else _header_class(lines[i])
        if error_type is None:
            i += 1
            continue
        start = i
        i += 1
        message: list[str] = []
        while i < len(lines) and len(message) < MAX_MESSAGE_LINES and not FILE_LINE.match(lines[i]):
            if not lines[i].strip() and not (i + 1 < len(lines) and FILE_LINE.match(lines[i + 1])):
                break
            message.append(lines[i])
            i += 1
        frames, i = _frames(lines, i)
        for k in range(start, i):
            claimed[k] = True
        # The popup lists the innermost frame first; a traceback's order (innermost last) is the events' own.
        events.append(exception_event(error_type, message, frames[::-1], start, None, "python-debugger"))
    return events


def _frames(lines: list[str], i: int) -> tuple[list[Frame], int]:
    """The popup's frames, each `File "...", line N, in f` and its source line, up to the first line that is neither
    (or the line that chains the exception to another, whose frames are that one's)."""
    frames: list[Frame] = []
    first = i
    while i < len(lines) and i - first < MAX_FRAME_LINES:
        line = lines[i]
        fm = FILE_LINE.match(line)
        if fm:
            frames.append(Frame(file=fm.group("file"), line=int(fm.group("line")), function=fm.group("function")))
        elif frames and line[:1].isspace() and line.strip() and not line.strip().startswith((CAUSE, CONTEXT)):
            if frames[-1].code is None:
                frames[-1] = frames[-1]._replace(code=line.strip())
        else:
            break
        i += 1
    return frames, i
