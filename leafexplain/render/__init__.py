"""Every output is built here: a report, a record or a table in the chosen format, and diagnostics on stderr.

This is the package's face: what the commands, the integrations and authoring call. Inside it:
- what to say: `brief` (the default view, per error), `document` and `sections` (the long view),
  `naming` (records, matches and errors in words), `tables` (a record table's cells);
- `fitting`: text made safe and fitted to a width, for every format;
- `layout`: the default view laid out to one screen (rows counted, parts kept by priority);
- `formats/`: the formats, siblings behind one protocol, named in `formats.FORMATS`;
- what the commands write besides a format: `commands` (around a report), `checks` (the record
  commands), `summary` (the pytest plugin's), `step_summary` (GitHub Actions'), `progress`;
- `style` (the Style asked for), `streams` (stdout and the diagnostics on stderr).
"""

from __future__ import annotations

import io
import sys
from collections.abc import Sequence

from leafexplain.env import DEFAULT_PIPE_WIDTH, ColorChoice, Environment
from leafexplain.models import Record, Report
from leafexplain.render.formats import (
    DOCUMENT_FORMATS,
    FORMAT_ALIASES,
    FORMAT_CHOICES,
    FORMATS,
    LINE_FORMATS,
    format_name,
)
from leafexplain.render.streams import emit, internal_error, usage_error, warn, warn_problems
from leafexplain.render.style import Row, Style

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: this is everyday start-up
if TYPE_CHECKING:
    from leafexplain.render.formats import Format

__all__ = [
    "DOCUMENT_FORMATS",
    "FORMATS",
    "FORMAT_ALIASES",
    "FORMAT_CHOICES",
    "LINE_FORMATS",
    "Row",
    "Style",
    "emit",
    "internal_error",
    "resolve_format",
    "to_text",
    "usage_error",
    "warn",
    "warn_problems",
    "write",
    "write_record",
    "write_records",
]


def resolve_format(fmt: str, env: Environment, color: ColorChoice) -> str:
    """The format's own name: `auto` is terminal on a terminal or wherever colour is on (`--color always`,
    FORCE_COLOR on a pipe), plain otherwise."""
    if fmt != "auto":
        return format_name(fmt)
    return "terminal" if env.stdout_isatty or env.use_color(color) else "plain"


def _format(env: Environment, style: Style) -> Format:
    name = FORMATS[resolve_format(style.format, env, style.color)]
    __import__(name)  # the builtin: importlib (and the warnings module it brings) is not needed for this
    return sys.modules[name]  # type: ignore[return-value]  # a format's module is a Format


def write(report: Report, env: Environment, style: Style) -> None:
    """The report on `env.stdout`: each finding explained, with what was found on this machine (its paths
    redacted once, here, for every format: `shown.Shown`)."""
    from leafexplain.render.shown import Shown

    _format(env, style).write_report(Shown(report, env.environ, style.input_name), env, style)


def write_record(record: Record, env: Environment, style: Style) -> None:
    """`show`: one record in full."""
    _format(env, style).write_record(record, env, style)


def write_records(rows: Sequence[Row], env: Environment, style: Style) -> None:
    """`list` and `search`: a table of records."""
    _format(env, style).write_records(list(rows), env, style)


def to_text(report: Report, style: Style) -> str:
    """The report as a string (the excepthook, embedding programs): as written to a pipe, never a terminal."""
    buffer = io.StringIO()
    write(report, Environment(stdout=buffer, width=style.width or DEFAULT_PIPE_WIDTH), style)
    return buffer.getvalue()
