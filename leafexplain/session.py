"""The one way through the pipeline: input in, a Report out. Nothing here prints.

The command line, `run`, the excepthook, the pytest plugin and the api all explain through
`explain` (text, bytes, pieces of a stream, or events already collected) or `explain_exception`
(a live exception), so that every way in finds, bounds, matches and locates errors alike.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping
from types import TracebackType

from leafexplain.intake.collect import Source, collect
from leafexplain.locate import LocalPaths
from leafexplain.match import DEFAULT_THRESHOLD, Matcher
from leafexplain.models import Collected, Limits, Report

# The records to match against, or how to load them: loaded only when there is an error to explain.
Records = Matcher | Callable[[], Matcher]


def load_matcher(
    extra: Iterable[str] = (), *, bundled: bool = True, environ: Mapping[str, str] = os.environ
) -> Matcher:
    """The records from every source, ready to match, from the index when it is current.

    Record problems are not reported here; `matcher.catalog.problems` lists them for callers that do.
    """
    from leafexplain.records import open_catalog

    return Matcher(open_catalog(tuple(extra), bundled=bundled, environ=environ))


class RecordsOnce:
    """Records loaded at the first error and kept: the excepthook and the pytest plugin explain many with one load."""

    def __init__(
        self, extra: Iterable[str] = (), *, bundled: bool = True, environ: Mapping[str, str] = os.environ
    ) -> None:
        self.extra, self.bundled, self.environ = tuple(extra), bundled, environ
        self.matcher: Matcher | None = None

    def __call__(self) -> Matcher:
        if self.matcher is None:
            self.matcher = load_matcher(self.extra, bundled=self.bundled, environ=self.environ)
        return self.matcher


def explain(
    source: Source | Collected,
    records: Records,
    limits: Limits = Limits(),
    *,
    pasted: bool = True,
    typed: bool = False,
    local: LocalPaths | None = None,
) -> Report:
    """Find the errors in `source`, match each against the records, and (with `local`) read the user's
    code and the library's source from this machine.

    `pasted`: text a person gave, where a short input with nothing else in it is one bare message;
    `typed`: given as arguments, so that such a message is meant as an error even when no record has it.
    Events found by a guess (that bare message otherwise, a warning) stay only when a record explains them.
    """
    collected = source if isinstance(source, Collected) else collect(source, limits, pasted=pasted, typed=typed)
    if not collected.events and not isinstance(records, Matcher):
        threshold = DEFAULT_THRESHOLD if limits.threshold is None else limits.threshold
        return Report((), threshold, collected.dropped, limits=limits)  # nothing to explain: no records loaded
    matcher = records if isinstance(records, Matcher) else records()
    findings = tuple(
        finding
        for finding in (matcher.match(event, threshold=limits.threshold) for event in collected.events)
        if finding.matches or not finding.event.tentative
    )
    threshold = matcher.threshold if limits.threshold is None else limits.threshold
    report = Report(findings, threshold, collected.dropped, limits=limits)
    return locate(report, local) if local is not None and findings else report


def explain_exception(
    exc_type: type[BaseException],
    exc_value: BaseException | None,
    exc_tb: TracebackType | None,
    records: Records,
    limits: Limits = Limits(),
) -> Report:
    """A live exception (its causes and context included), explained from the traceback Python prints for it."""
    import traceback

    text = "".join(traceback.format_exception(exc_type, exc_value, exc_tb))
    return explain(text, records, limits, pasted=False)


def locate(report: Report, local: LocalPaths) -> Report:
    """The report with the user's code and each match's installed library source, from this machine."""
    from leafexplain.locate import find_sources

    return report._replace(located=find_sources(report.findings, local))
