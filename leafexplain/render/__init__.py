"""Every output is built here: a report, a record or a table in the chosen format, and diagnostics on stderr.

Each format is a module with `write_report`, `write_record` and `write_records`, named once in
FORMATS: a new format is one module and one entry (the command line's `--format` choices are
read from here). A format's module is imported only when it is used: rich costs start-up time.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Iterable, Sequence
from types import ModuleType

from leafexplain.env import DEFAULT_PIPE_WIDTH, ColorChoice, Environment
from leafexplain.models import Problem, Record, Report
from leafexplain.named import NamedTuple
from leafexplain.text import printable

FORMATS = {
    "rich": "leafexplain.render.ansi",  # the default view; rich_view for --full, show and tables
    "plain": "leafexplain.render.plain",
    "json": "leafexplain.render.json_out",
    "markdown": "leafexplain.render.markdown",
    "github": "leafexplain.render.github",
    "sarif": "leafexplain.render.sarif",
}
FORMAT_CHOICES = ("auto", *FORMATS)  # auto: rich on a terminal (or with colour forced), plain otherwise
DOCUMENT_FORMATS = frozenset({"json", "sarif"})  # read by tools: a document is written even when nothing was found
MAX_PROBLEMS_SHOWN = 20
Row = tuple[Record, "float | None"]  # a record and its search score, for `list` and `search`


class Style(NamedTuple):
    """How to show it: the format, colour, width (None: the terminal's), and how much of each record."""

    format: str = "auto"
    color: ColorChoice = "auto"
    width: int | None = None
    full: bool = False  # the long view: everything the record has, instead of one screen per error
    show_all: bool = False  # also every other record at or above the cut-off
    verbose: bool = False  # also what the matcher measured: method, score, matched characters, record id
    full_hint: bool = True  # `or add --full` after the show command: not where no command line was typed (a hook)
    input_name: str | None = None  # the file the input was read from (`--file`): where an error with no frame lies


def resolve_format(fmt: str, env: Environment, color: ColorChoice) -> str:
    if fmt != "auto":
        return fmt
    return "rich" if env.stdout_isatty or color == "always" else "plain"


def _module(env: Environment, style: Style) -> ModuleType:
    name = FORMATS[resolve_format(style.format, env, style.color)]
    __import__(name)  # the builtin: importlib (and the warnings module it brings) is not needed for this
    return sys.modules[name]


def write(report: Report, env: Environment, style: Style) -> None:
    """The report on `env.stdout`: each finding explained, with what was found on this machine."""
    _module(env, style).write_report(report, env, style)


def write_record(record: Record, env: Environment, style: Style) -> None:
    """`show`: one record in full."""
    _module(env, style).write_record(record, env, style)


def write_records(rows: Sequence[Row], env: Environment, style: Style) -> None:
    """`list` and `search`: a table of records."""
    _module(env, style).write_records(list(rows), env, style)


def to_text(report: Report, style: Style) -> str:
    """The report as a string (the excepthook, embedding programs): as written to a pipe, never a terminal."""
    buffer = io.StringIO()
    write(report, Environment(stdout=buffer, width=style.width or DEFAULT_PIPE_WIDTH), style)
    return buffer.getvalue()


def emit(env: Environment, text: str) -> None:
    """Text on stdout, flushed: a reader of a pipe sees each piece as it is done."""
    env.stdout.write(text)
    env.stdout.flush()


def warn(env: Environment, message: str) -> None:
    """One line on stderr; file names, ids and arguments quoted in it cannot act on the terminal, and a secret
    in them (a path, a query, a command) is redacted unless redaction is off (`--no-redact`). Every warning
    and error leafexplain writes goes through here, `usage_error` or `internal_error`."""
    if env.redact:
        from leafexplain.redact import redact

        message = redact(message)
    env.stderr.write(f"leafexplain: {printable(message)}\n")
    env.stderr.flush()


def usage_error(env: Environment, text: str) -> None:
    """click's usage message, each line with the user's own text in it made printable (and redacted)."""
    from leafexplain.redact import redact

    env.stderr.write("".join(printable(redact(line)) + "\n" for line in text.splitlines()))
    env.stderr.flush()


def internal_error(env: Environment, exc: BaseException) -> None:
    """A bug of ours, in one line: what it was, and how to see the traceback. What the exception
    quotes of the input may hold a secret: it is redacted."""
    from leafexplain.redact import redact

    env.stderr.write(
        f"leafexplain: internal error: {printable(redact(f'{type(exc).__name__}: {exc}'))} "
        "(set LEAFEXPLAIN_DEBUG=1 for details)\n"
    )
    env.stderr.flush()


def warn_problems(env: Environment, problems: Iterable[Problem]) -> None:
    problems = list(problems)
    for problem in problems[:MAX_PROBLEMS_SHOWN]:
        warn(env, f"skipped record: {problem}")
    if len(problems) > MAX_PROBLEMS_SHOWN:
        warn(env, f"… and {len(problems) - MAX_PROBLEMS_SHOWN} more record problems (run `leafexplain validate`)")
