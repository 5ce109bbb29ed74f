"""`leafexplain.api`, the api for programs that embed leafexplain: explain text or a stream, render the report.

A few lines over the session and the renderer, the same ones the command line uses. Importing it is
cheap: the pipeline is imported at the first call.
"""

from __future__ import annotations

from collections.abc import Iterable

from leafexplain.models import Limits, Report

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing
if TYPE_CHECKING:
    from leafexplain.match import Matcher

__all__ = ["explain", "explain_chunks", "load_matcher", "render"]


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
    """Find the errors in `text` and match them against the records (loaded only when there is an error);
    secrets in it are redacted unless `redact` is False (`report.redacted` counts them by kind)."""
    return _explained(text, records, bundled, threshold, redact)


def explain_chunks(
    chunks: Iterable[bytes],
    *,
    records: Iterable[str] = (),
    bundled: bool = True,
    threshold: float | None = None,
    redact: bool = True,
) -> Report:
    """Like `explain`, for output of any size arriving in pieces: memory stays bounded."""
    return _explained(chunks, records, bundled, threshold, redact)


def _explained(
    source: str | Iterable[bytes], records: Iterable[str], bundled: bool, threshold: float | None, redact: bool
) -> Report:
    from leafexplain import session

    asked = session.Request(
        session.Text(source),
        records=session.Records(tuple(records), bundled=bundled),
        limits=Limits(threshold=threshold),
        redact=redact,
    )
    return session.explain_request(asked)


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
    """The report as text: `plain`, `markdown`, `json`, `github`, `sarif` or `rich` (with colour when asked).

    `source` adds the user's code and the library source as installed on this machine (relative
    paths tried against `root`, then the current folder), as `leafexplain explain` does.
    """
    from leafexplain import render as output
    from leafexplain import session

    if source:
        report = session.locate(report, session.Local(str(root) if root else None))
    return output.to_text(report, output.Style(fmt, "always" if color else "never", width, full=full, full_hint=False))
