"""What a record table says for `list` and `search`: its headers and each record's cells, as every format shows them."""

from __future__ import annotations

from leafexplain.models import Record
from leafexplain.render.fitting import safe
from leafexplain.render.naming import headline
from leafexplain.render.style import Row


def table_cells(record: Record, score: float | None) -> list[str]:
    """A record's row: its search score (when searched), id, repository, type and message."""
    message = headline(record)
    kind = safe(record.errorClass or record.errorType or "", 60)
    cells = [safe(record.id, 100), safe(record.repo, 100), kind, message]
    return ([f"{score:g}"] if score is not None else []) + cells


def table_headers(rows: list[Row]) -> list[str]:
    """The columns' names; `score` first when the rows were searched."""
    scored = bool(rows) and rows[0][1] is not None
    return (["score"] if scored else []) + ["id", "repo", "type", "message"]
