"""Plain text and Markdown renderings of views: no escape codes, stable for pipes and files."""

from __future__ import annotations

import textwrap
from collections.abc import Iterable

from leafexplain.render.document import Block, View
from leafexplain.schema import safe_link
from leafexplain.sources import printable

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


def _snippet_lines(block: Block) -> list[str]:
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
        return _snippet_lines(block)
    return [INDENT + printable(block.text)]  # a link: printed whole, anything odd in it shown escaped


def render_plain(views: Iterable[View], width: int) -> str:
    out: list[str] = []
    for view in views:
        if out:
            out.append("")
        rule = "=" * min(width, 100)
        out.append(rule)
        out.append(view.heading)
        out.extend(INDENT + line for line in view.message.split("\n"))
        label_width = max((len(k) for k, _ in view.facts), default=0) + 1
        out.extend(f"{INDENT}{(key + ':').ljust(label_width)} {value}" for key, value in view.facts)
        for section in view.sections:
            out.append("")
            out.append(section.title)
            for block in section.blocks:
                out.extend(_plain_block(block, width))
    return "\n".join(out) + "\n" if out else ""


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
        return _md_fence("\n".join(line[len(INDENT) :] for line in _snippet_lines(block)), block.language)
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
