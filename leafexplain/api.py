"""A small, stable API for code that embeds leafexplain: `run`, the pytest plugin, the excepthook."""

from __future__ import annotations

import io
from collections.abc import Iterable

from leafexplain.match import Matcher
from leafexplain.pipeline import Report, explain_stream, explain_text


def load_matcher(records: Iterable[str] = (), *, bundled: bool = True) -> Matcher:
    """The records from every source, ready to match (record problems are ignored here)."""
    from leafexplain.records import load_records

    return Matcher(load_records(records, bundled=bundled).records)


def explain(text: str, *, records: Iterable[str] = (), bundled: bool = True, threshold: float | None = None) -> Report:
    """Find the errors in `text` and match them against the records."""
    return explain_text(text, load_matcher(records, bundled=bundled), threshold)


def explain_chunks(
    chunks: Iterable[bytes], *, records: Iterable[str] = (), bundled: bool = True, threshold: float | None = None
) -> Report:
    """Like `explain`, for output of any size arriving in pieces: memory stays bounded."""
    return explain_stream(chunks, load_matcher(records, bundled=bundled), threshold)


def render(report: Report, *, fmt: str = "plain", width: int = 100, color: bool = False, full: bool = False) -> str:
    """The report as text: `plain`, `markdown`, `json` or `rich` (with colour when asked)."""
    if fmt == "json":
        from leafexplain.render.json_out import dumps, explain_document

        return dumps(explain_document(report.matches, report.threshold))
    from leafexplain.render.document import event_view

    views = [event_view(m, full=full, show_all=False) for m in report.matches]
    if fmt == "markdown":
        from leafexplain.render.plain import render_markdown

        return render_markdown(views)
    if fmt == "rich":
        from rich.console import Console

        from leafexplain.render.rich_view import print_views

        buffer = io.StringIO()
        console = Console(
            file=buffer,
            width=width,
            force_terminal=color,
            color_system="256" if color else None,
            highlight=False,
            markup=False,
            emoji=False,
        )
        print_views(console, views)
        return buffer.getvalue()
    from leafexplain.render.plain import render_plain

    return render_plain(views, width)
