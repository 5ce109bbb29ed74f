"""The output formats, siblings behind one protocol (Format): `write_report`, `write_record`, `write_records`.

FORMATS names each once: a new format is one module and one entry (the command line's `--format`
choices are read from here). A format's module is imported only when it is used: the terminal
format's long view imports rich, which costs start-up time.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: the registry is read at every start-up
if TYPE_CHECKING:
    from typing import Protocol

    from leafexplain.env import Environment
    from leafexplain.models import Record
    from leafexplain.render.shown import Shown
    from leafexplain.render.style import Row, Style

    class Format(Protocol):
        """What a format's module provides (a module is checked against it where FORMATS is looked up)."""

        def write_report(self, shown: Shown, env: Environment, style: Style) -> None:
            """Each finding explained, with what was found on this machine (`explain`, `run`, `demo`): the
            report and every path of this machine from `shown`, where they are redacted."""

        def write_record(self, record: Record, env: Environment, style: Style) -> None:
            """One record in full (`show`)."""

        def write_records(self, rows: list[Row], env: Environment, style: Style) -> None:
            """A table of records (`list`, `search`)."""


FORMATS = {
    "terminal": "leafexplain.render.formats.terminal",  # colour and one screen per error, for a person at a terminal
    "plain": "leafexplain.render.formats.plain",
    "json": "leafexplain.render.formats.json_out",
    "markdown": "leafexplain.render.formats.markdown",
    "github": "leafexplain.render.formats.github",
    "sarif": "leafexplain.render.formats.sarif",
    "concise": "leafexplain.render.formats.concise",  # `file:line:col: error: message [id]`, for editors
    "jsonl": "leafexplain.render.formats.jsonl",  # one JSON object a line per error
}
FORMAT_ALIASES = {"rich": "terminal"}  # the terminal format's name before it was written without rich
FORMAT_CHOICES = ("auto", *FORMATS)  # auto: terminal on a terminal (or with colour forced), plain otherwise
DOCUMENT_FORMATS = frozenset({"json", "sarif"})  # read by tools: a document is written even when nothing was found
# One line per error and nothing around them: `run` writes each error's line as soon as the error is complete.
LINE_FORMATS = frozenset({"concise", "jsonl"})


def format_name(name: str) -> str:
    """A format's own name, for a name the command line accepts (an alias such as `rich`)."""
    return FORMAT_ALIASES.get(name, name)
