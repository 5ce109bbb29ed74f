"""The plain format: text without escape codes, wrapped to the width, stable for pipes and files."""

from __future__ import annotations

import textwrap
from collections.abc import Iterable

from leafexplain.env import Environment
from leafexplain.models import Record, Report
from leafexplain.render import Row, Style, emit
from leafexplain.render.brief import briefs, summary_line
from leafexplain.render.document import Block, View, record_view, report_views
from leafexplain.render.screen import report_cards
from leafexplain.render.tables import record_table_plain
from leafexplain.text import printable

INDENT = "  "


def _wrap(text: str, width: int, indent: str = INDENT) -> list[str]:
    out: list[str] = []
    for paragraph in text.split("\n"):
        if not paragraph.strip():
            out.append("")
            continue
        out.extend(
            textwrap.wrap(
                paragraph,
                width=max(width - len(indent), 20),
                initial_indent=indent,
                subsequent_indent=indent,
                break_on_hyphens=False,
                break_long_words=False,
            )
            or [indent]
        )
    return out


def snippet_lines(block: Block) -> list[str]:
    lines = block.text.split("\n")
    last = block.first_line + len(lines) - 1
    digits = len(str(last))
    out = []
    for n, line in enumerate(lines, start=block.first_line):
        mark = ">" if n == block.highlight_line else " "
        out.append(f"{INDENT}{mark} {n:>{digits}} | {line}".rstrip())
    return out


def _plain_block(block: Block, width: int) -> list[str]:
    if block.kind == "text":
        return _wrap(block.text, width)
    if block.kind in ("bullets", "numbered"):
        out: list[str] = []
        for n, item in enumerate(block.items, start=1):
            marker = f"{n}. " if block.kind == "numbered" else "- "
            wrapped = _wrap(item, width, INDENT + " " * len(marker))
            wrapped[0] = INDENT + marker + wrapped[0].lstrip()
            out.extend(wrapped)
        return out
    if block.kind == "code":
        return [(INDENT * 2 + line).rstrip() for line in block.text.split("\n")]
    if block.kind == "snippet":
        return snippet_lines(block)
    return [INDENT + printable(block.text)]  # a link: printed whole, anything odd in it shown escaped


def render_plain(views: Iterable[View], width: int) -> str:
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


def render_cards(report: Report, style: Style, width: int) -> str:
    """The default view: each error on one screen, then a line counting them when there are several."""
    out: list[str] = []
    found = briefs(report, verbose=style.verbose, show_all=style.show_all)
    for lines in report_cards(found, width, full_hint=style.full_hint):
        if out:
            out.append("")
        out.extend("".join(segment.text for segment in line).rstrip() for line in lines)
    summary = summary_line(report)
    if summary:
        out += ["", summary]
    return "\n".join(out) + "\n" if out else ""


def write_report(report: Report, env: Environment, style: Style) -> None:
    width = style.width or env.width
    if style.full:
        emit(env, render_plain(report_views(report, style), width))
    else:
        emit(env, render_cards(report, style, width))


def write_record(record: Record, env: Environment, style: Style) -> None:
    emit(env, render_plain([record_view(record)], style.width or env.width))


def write_records(rows: list[Row], env: Environment, style: Style) -> None:
    emit(env, record_table_plain(rows, style.width or env.width))
