"""Record tables for `list` and `search`, in rich, plain and Markdown."""

from __future__ import annotations

from typing import Any

from leafexplain.models import Record
from leafexplain.render import Row
from leafexplain.render.document import safe
from leafexplain.render.words import headline


def _cells(record: Record, score: float | None) -> list[str]:
    message = headline(record)
    kind = safe(record.errorClass or record.errorType or "", 60)
    cells = [safe(record.id, 100), safe(record.repo, 100), kind, message]
    return ([f"{score:g}"] if score is not None else []) + cells


def _headers(rows: list[Row]) -> list[str]:
    scored = bool(rows) and rows[0][1] is not None
    return (["score"] if scored else []) + ["id", "repo", "type", "message"]


def record_table_rich(rows: list[Row]) -> Any:
    from rich.table import Table
    from rich.text import Text

    table = Table(show_edge=False, header_style="bold")
    headers = _headers(rows)
    for h in headers:
        table.add_column(h, no_wrap=h != "message", overflow="ellipsis" if h == "message" else "fold")
    for record, score in rows:
        table.add_row(*(Text(c) for c in _cells(record, score)))
    return table


def record_table_plain(rows: list[Row], width: int) -> str:
    headers = _headers(rows)
    body = [_cells(r, s) for r, s in rows]
    widths = [max([len(h)] + [len(row[i]) for row in body]) for i, h in enumerate(headers[:-1])]
    lines = []
    for row in [headers, *body]:
        head = "  ".join(cell.ljust(w) for cell, w in zip(row[:-1], widths, strict=True))
        room = max(width - len(head) - 2, 20)
        last = row[-1] if len(row[-1]) <= room else row[-1][: room - 1] + "…"
        lines.append(f"{head}  {last}".rstrip())
    return "\n".join(lines) + "\n"


def record_table_markdown(rows: list[Row]) -> str:
    headers = _headers(rows)

    def cell(text: str) -> str:
        return text.replace("|", "\\|").replace("`", "\\`")

    lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    lines += ["| " + " | ".join(cell(c) for c in _cells(r, s)) + " |" for r, s in rows]
    return "\n".join(lines) + "\n"
