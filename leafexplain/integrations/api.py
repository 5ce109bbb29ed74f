"""The api for programs that embed leafexplain: explain text or a stream, render the report as text.

A few lines over the session and the renderer, the same ones the command line uses.
"""

from __future__ import annotations

from collections.abc import Iterable

from leafexplain.match import Matcher
from leafexplain.models import Limits, Report


def load_matcher(records: Iterable[str] = (), *, bundled: bool = True) -> Matcher:
    """The records from every source, ready to match, from the index when it is current.

    Record problems are left out here; `Matcher.catalog.problems` lists them for callers that
    report them.
    """
    from leafexplain import session

    return session.load_matcher(records, bundled=bundled)


def explain(
    text: str, *, records: Iterable[str] = (), bundled: bool = True, threshold: float | None = None, redact: bool = True
) -> Report:
    """Find the errors in `text` and match them against the records; secrets in it are redacted unless
    `redact` is False (`report.redacted` counts them by kind)."""
    from leafexplain import session

    return session.explain(text, load_matcher(records, bundled=bundled), Limits(threshold=threshold), redact=redact)


def explain_chunks(
    chunks: Iterable[bytes],
    *,
    records: Iterable[str] = (),
    bundled: bool = True,
    threshold: float | None = None,
    redact: bool = True,
) -> Report:
    """Like `explain`, for output of any size arriving in pieces: memory stays bounded."""
    from leafexplain import session

    matcher = load_matcher(records, bundled=bundled)
    return session.explain(chunks, matcher, Limits(threshold=threshold), redact=redact)


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
    """The report as text: `plain`, `markdown`, `json`, `github`, `sarif` or `terminal` (with colour when asked).

    `source` adds the user's code and the library source as installed on this machine (relative
    paths tried against `root`, then the current folder), as `leafexplain explain` does.
    """
    import os
    from pathlib import Path

    from leafexplain import render as output
    from leafexplain import session
    from leafexplain.locate import LocalPaths

    if source:
        report = session.locate(report, LocalPaths.from_environment(os.environ, Path(root) if root else None))
    return output.to_text(report, output.Style(fmt, "always" if color else "never", width, full=full, full_hint=False))
