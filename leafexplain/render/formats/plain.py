"""The plain format: text without escape codes, wrapped to the width, stable for pipes and files."""

from __future__ import annotations

from collections.abc import Iterable

from leafexplain.env import Environment
from leafexplain.models import Record, Report
from leafexplain.render.document import View, record_view, report_views
from leafexplain.render.fitting import CUT, indented_prose
from leafexplain.render.layout import Line, render_cards
from leafexplain.render.sections import Block, snippet_lines
from leafexplain.render.streams import emit
from leafexplain.render.style import Row, Style
from leafexplain.render.tables import table_cells, table_headers
from leafexplain.text import printable

INDENT = "  "


def _plain_block(block: Block, width: int) -> list[str]:
    if block.kind == "text":
        return indented_prose(block.text, width, INDENT)
    if block.kind in ("bullets", "numbered"):
        out: list[str] = []
        for n, item in enumerate(block.items, start=1):
            marker = f"{n}. " if block.kind == "numbered" else "- "
            wrapped = indented_prose(item, width, INDENT + " " * len(marker))
            wrapped[0] = INDENT + marker + wrapped[0].lstrip()
            out.extend(wrapped)
        return out
    if block.kind == "code":
        return [(INDENT * 2 + line).rstrip() for line in block.text.split("\n")]
    if block.kind == "snippet":
        return snippet_lines(block, INDENT)
    return [INDENT + printable(block.text)]  # a link: printed whole, anything odd in it shown escaped


def render_plain(views: Iterable[View], width: int) -> str:
    """The long view (`--full`, `show`): a rule, the heading, the message and facts, then every section."""
    out: list[str] = []
    for view in views:
        if out:
            out.append("")
        rule = "=" * min(width, 100)
        out.append(rule)
        out.append(view.heading)
        if view.message.strip():
            out.extend(INDENT + line for line in view.message.split("\n"))
        label_width = max((len(k) for k, _ in view.facts), default=0) + 1
        out.extend(f"{INDENT}{(key + ':').ljust(label_width)} {value}" for key, value in view.facts)
        for section in view.sections:
            out.append("")
            out.append(section.title)
            for block in section.blocks:
                out.extend(_plain_block(block, width))
    return "\n".join(out) + "\n" if out else ""


def plain_line(line: Line) -> str:
    """A row of the default view as its text alone."""
    return "".join(segment.text for segment in line).rstrip()


def record_table_plain(rows: list[Row], width: int) -> str:
    """Columns padded to their longest cell; the message cut to what is left of the width."""
    headers = table_headers(rows)
    body = [table_cells(r, s) for r, s in rows]
    widths = [max([len(h)] + [len(row[i]) for row in body]) for i, h in enumerate(headers[:-1])]
    lines = []
    for row in [headers, *body]:
        head = "  ".join(cell.ljust(w) for cell, w in zip(row[:-1], widths, strict=True))
        room = max(width - len(head) - 2, 20)
        last = row[-1] if len(row[-1]) <= room else row[-1][: room - 1] + CUT
        lines.append(f"{head}  {last}".rstrip())
    return "\n".join(lines) + "\n"


def write_report(report: Report, env: Environment, style: Style) -> None:
    width = style.width or env.width
    if style.full:
        emit(env, render_plain(report_views(report, style), width))
    else:
        emit(env, render_cards(report, style, width, plain_line))


def write_record(record: Record, env: Environment, style: Style) -> None:
    emit(env, render_plain([record_view(record)], style.width or env.width))


def write_records(rows: list[Row], env: Environment, style: Style) -> None:
    emit(env, record_table_plain(rows, style.width or env.width))
