"""Find IPython, Jupyter and Colab tracebacks: `RuntimeError   Traceback (most recent call last)`, cells, `---->` lines.

IPython prints its own layout: the class and the header on one line, then for each frame a
location line (`Cell In[3], line 5`, `File ~/x.py:706, in f(self)`, or before IPython 8
`<ipython-input-3-...> in <module>`, `~/x.py in f(self)`), the code around it with the current
line marked `---->`, and at the end the usual `Class: message`. A paste cut before that last line is the
header's exception with no message.
"""

from __future__ import annotations

from leafexplain.extract.common import EXCEPTION_LINE, short_class, trim_blank, user_frame
from leafexplain.models import ErrorEvent, Frame
from leafexplain.regex import lazy_regex

HEADER = lazy_regex(r"^\s*(?P<type>(?:[A-Za-z_]\w*\.)*[A-Za-z_]\w*)\s{2,}T?raceback \(most recent call last\)\s*$")
CELL = lazy_regex(
    r"^(?:Cell In ?\[(?P<cell>[^\]]*)\], line (?P<line>\d+)|Input In \[(?P<input>[^\]]*)\], in (?P<fn>.+))\s*$"
)
FILE_AT = lazy_regex(r"^File (?P<file>.+?):(?P<line>\d+)(?:, in (?P<function>.+?))?\s*$")
OLD_LOCATION = lazy_regex(r"^(?P<file><ipython-input-[^>]*>|\S.*?\.py|<[^>]+>) in (?P<function>\S.*?)\s*$")
LINK = lazy_regex(r"\[(?P<text>[^\[\]]*)\]\([^()\s]*\)")
MARKED = lazy_regex(r"^-+> ?(?P<line>\d+)\s(?P<code>.*)$")
CODE = lazy_regex(r"^\s+\d+\s")
MAX_LINES = 2000
MAX_MESSAGE_LINES = 200


def _location(line: str) -> Frame | None:
    cell = CELL.match(line)
    if cell:
        number = cell.group("line")
        name = (
            f"Cell In[{cell.group('cell')}]" if cell.group("cell") is not None else f"Input In [{cell.group('input')}]"
        )
        return Frame(file=name, line=int(number) if number else None, function=cell.group("fn"))
    at = FILE_AT.match(line)
    if at:
        return Frame(file=at.group("file"), line=int(at.group("line")), function=at.group("function"))
    old = OLD_LOCATION.match(line)
    if old:
        return Frame(file=old.group("file"), function=old.group("function"))
    return None


def extract(lines: list[str], claimed: list[bool]) -> list[ErrorEvent]:
    events: list[ErrorEvent] = []
    i = 0
    while i < len(lines):
        header = HEADER.match(lines[i]) if not claimed[i] and "raceback (most" in lines[i] else None
        if not header:
            i += 1
            continue
        start, error_type = i, header.group("type")
        frames: list[Frame] = []
        i += 1
        end = min(len(lines), start + MAX_LINES)
        message: list[str] | None = None
        while i < end:
            line = lines[i].rstrip()
            if "](" in line:  # VS Code's notebook output: each line number a link (`[line 16](vscode-notebook-cell:…)`)
                line = LINK.sub(r"\g<text>", line)
            text = line.strip()
            if "raceback (most" in line and HEADER.match(line):
                break  # the next exception's header: this one's last line was cut
            em = EXCEPTION_LINE.match(line) if line and not line[0].isspace() else None
            if em and short_class(em.group("type")) == short_class(error_type) and not _location(line):
                message = [em.group("message") or ""]
                i += 1
                while i < end and lines[i].strip() and len(message) < MAX_MESSAGE_LINES:
                    message.append(lines[i])
                    i += 1
                break
            marked = MARKED.match(text)
            if marked and frames:
                last = frames[-1]
                line_number = last.line or int(marked.group("line"))
                frames[-1] = Frame(last.file, line_number, None, last.function, marked.group("code").strip() or None)
            elif not CODE.match(line) and (location := _location(text)) is not None:
                frames.append(location)
            i += 1
        if message is None:
            # The paste stops (or the next header starts) before the `Class: message` line: the header still
            # says which exception was raised, and the frames where. Only a header with a frame after it is one.
            if not frames:
                i = start + 1
                continue
            message = [""]
        for k in range(start, i):
            claimed[k] = True
        events.append(
            ErrorEvent(
                language="python",
                error_type=error_type,
                message="\n".join(trim_blank(message)).strip(),
                location=frames[-1] if frames else None,
                frames=tuple(frames),
                user_frame=user_frame(frames, "python", innermost_first=False),
                extractor="python-jupyter",
                line_number=start + 1,
            )
        )
    return events
