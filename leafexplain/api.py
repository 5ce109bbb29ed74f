"""A small, stable API for code that embeds leafexplain: `run`, the pytest plugin, the excepthook."""

from __future__ import annotations

import io
from collections.abc import Iterable

from leafexplain.match import Matcher
from leafexplain.pipeline import Report, explain_stream, explain_text


def load_matcher(records: Iterable[str] = (), *, bundled: bool = True) -> Matcher:
    """The records from every source, ready to match, from the index when it is current.

    Record problems are left out here; `Matcher.catalog.problems` lists them for callers that
    report them.
    """
    from leafexplain.index import open_catalog

    return Matcher(open_catalog(tuple(records), bundled=bundled))


def explain(text: str, *, records: Iterable[str] = (), bundled: bool = True, threshold: float | None = None) -> Report:
    """Find the errors in `text` and match them against the records."""
    return explain_text(text, load_matcher(records, bundled=bundled), threshold)


def explain_chunks(
    chunks: Iterable[bytes], *, records: Iterable[str] = (), bundled: bool = True, threshold: float | None = None
) -> Report:
    """Like `explain`, for output of any size arriving in pieces: memory stays bounded."""
    return explain_stream(chunks, load_matcher(records, bundled=bundled), threshold)


def render(
    report: Report,
    *,
    fmt: str = "plain",
    width: int = 100,
    color: bool = False,
    full: bool = False,
    source: bool = False,
    root: str | None = None,
) -> str:
    """The report as text: `plain`, `markdown`, `json` or `rich` (with colour when asked).

    `source` adds the user's code and the library source as installed on this machine (relative
    paths tried against `root`, then the current folder), as `leafexplain explain` does.
    """
    sources = None
    if source:
        from pathlib import Path

        from leafexplain.localsource import LocalPaths, find_sources

        sources = find_sources(report.matches, LocalPaths.from_process(Path(root) if root else None))
    if fmt == "json":
        from leafexplain.render.json_out import dumps, explain_document

        return dumps(explain_document(report.matches, report.threshold, sources))
    from leafexplain.render.document import event_views

    views = event_views(report.matches, full=full, show_all=False, sources=sources)
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
