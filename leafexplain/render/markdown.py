"""The Markdown format: headings, fenced code and escaped text, for issues, pull requests and chat."""

from __future__ import annotations

from collections.abc import Iterable

from leafexplain.env import Environment
from leafexplain.models import Record, Report
from leafexplain.render import Row, Style, emit
from leafexplain.render.document import Block, View, record_view, report_views
from leafexplain.render.plain import INDENT, snippet_lines
from leafexplain.render.tables import record_table_markdown
from leafexplain.text import printable, safe_link


def _md_fence(text: str, language: str) -> str:
    fence = "```"
    while fence in text:
        fence += "`"
    return f"{fence}{language if language != 'text' else ''}\n{text}\n{fence}"


def _md_escape(text: str) -> str:
    return "".join("\\" + ch if ch in "\\`*_[]<>#|" else ch for ch in text)


def _md_block(block: Block) -> str:
    if block.kind == "text":
        return _md_escape(block.text)
    if block.kind == "bullets":
        return "\n".join(f"- {_md_escape(i)}" for i in block.items)
    if block.kind == "numbered":
        return "\n".join(f"{n}. {_md_escape(i)}" for n, i in enumerate(block.items, start=1))
    if block.kind == "code":
        return _md_fence(block.text, block.language)
    if block.kind == "snippet":
        return _md_fence("\n".join(line[len(INDENT) :] for line in snippet_lines(block)), block.language)
    return f"<{block.text}>" if safe_link(block.text) else _md_escape(printable(block.text))


def render_markdown(views: Iterable[View]) -> str:
    parts: list[str] = []
    for view in views:
        parts.append(f"## {_md_escape(view.heading)}")
        parts.append(_md_fence(view.message, "text"))
        if view.facts:
            parts.append("\n".join(f"- **{_md_escape(k)}**: {_md_escape(v)}" for k, v in view.facts))
        for section in view.sections:
            parts.append(f"### {_md_escape(section.title)}")
            parts.extend(_md_block(b) for b in section.blocks)
    return "\n\n".join(parts) + "\n" if parts else ""


def write_report(report: Report, env: Environment, style: Style) -> None:
    emit(env, render_markdown(report_views(report, style)))


def write_record(record: Record, env: Environment, style: Style) -> None:
    emit(env, render_markdown([record_view(record)]))


def write_records(rows: list[Row], env: Environment, style: Style) -> None:
    emit(env, record_table_markdown(rows))
