"""The concise format: one line per error, `file:line:col: error: message [record id]`, as compilers write them.

What editors read from a build's output: VS Code's problem matchers, vim's `errorformat` (its
default reads `%f:%l:%c: %m`), Emacs' compilation mode (docs/editors.md). The place is the
user's frame (relative to the workspace when it lies inside it, else as printed); without one, the
error's own location, else the input file and the line the error starts on (`-` for stdin). The
column is 1 when it is not known. The bracket holds the id of the record that explains it
(`leafexplain show ID`), or `unknown` when none does, so that every line ends the same way.
"""

from __future__ import annotations

from leafexplain.env import Environment
from leafexplain.models import Record
from leafexplain.render.fitting import one_line
from leafexplain.render.naming import error_text
from leafexplain.render.shown import Shown
from leafexplain.render.streams import emit
from leafexplain.render.style import Row, Style

MESSAGE_CHARS = 500
UNKNOWN = "unknown"


def place(shown: Shown, index: int) -> tuple[str, int, int]:
    """Where finding `index` is: the file, line and column a line of this format starts with."""
    at = shown.place(index)
    if at is not None:
        return at.path or at.frame.file, at.line or 1, at.column or 1
    event = shown.report.findings[index].event
    if event.location is not None and event.location.file:
        return event.location.file, event.location.line or 1, event.location.column or 1
    return shown.input_name or "-", event.line_number or 1, 1


def error_line(shown: Shown, index: int) -> str:
    finding = shown.report.findings[index]
    file, line, column = place(shown, index)
    message = one_line(error_text(finding.event), MESSAGE_CHARS)
    record = finding.best.record.id if finding.best is not None else UNKNOWN
    return f"{one_line(file, MESSAGE_CHARS)}:{line}:{column}: error: {message} [{one_line(record, 64)}]\n"


def write_report(shown: Shown, env: Environment, style: Style) -> None:
    lines = [error_line(shown, i) for i in range(len(shown.report.findings))]
    if lines:
        emit(env, "".join(lines))
        env.stdout.flush()  # each line as it is written: `run` streams this format


# A record or a table of them is no error at a place: `show`, `list` and `search` write plain text.
def write_record(record: Record, env: Environment, style: Style) -> None:
    from leafexplain.render.formats import plain

    plain.write_record(record, env, style)


def write_records(rows: list[Row], env: Environment, style: Style) -> None:
    from leafexplain.render.formats import plain

    plain.write_records(rows, env, style)
