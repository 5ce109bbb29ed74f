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
from leafexplain.models import Collected, Finding, Limits, Report

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
    redact: bool = True,
) -> Report:
    """Find the errors in `source`, match each against the records, and (with `local`) read the user's
    code and the library's source from this machine.

    `pasted`: text a person gave, where a short input with nothing else in it is one bare message;
    `typed`: given as arguments, so that such a message is meant as an error even when no record has it.
    Events found by a guess (that bare message otherwise, a warning) stay only when a record explains them.
    `redact`: secrets in the input are replaced as it is read, and in the user's code as it is read
    (a Collected was redacted, or not, when it was collected).
    Raises ValueError for a cut-off that is not a number from 0 to 100 (`nan` included).
    """
    if limits.threshold is not None and not 0 <= limits.threshold <= 100:  # false for nan too
        raise ValueError(f"the threshold must be a number from 0 to 100, not {limits.threshold}")
    collected = (
        source if isinstance(source, Collected) else collect(source, limits, pasted=pasted, typed=typed, redact=redact)
    )
    if not collected.events and not isinstance(records, Matcher):
        threshold = DEFAULT_THRESHOLD if limits.threshold is None else limits.threshold
        # nothing to explain: no records loaded
        return Report((), threshold, collected.dropped, limits=limits, redacted=collected.redacted)
    matcher = records if isinstance(records, Matcher) else records()
    findings = _kept(
        matcher.match(event, threshold=limits.threshold, matches_only=event.tentative) for event in collected.events
    )
    threshold = matcher.threshold if limits.threshold is None else limits.threshold
    report = Report(findings, threshold, collected.dropped, limits=limits, redacted=collected.redacted)
    return locate(report, local) if local is not None and findings else report


def _kept(findings: Iterable[Finding]) -> tuple[Finding, ...]:
    """The findings to report: a guess only when a record explains it, and not when it is the rest of the error
    just before it (a later part of the same record's wording: `Missing key(s) ...` under `Error(s) in
    loading state_dict ...` pasted without its indent)."""
    kept: list[Finding] = []
    for finding in findings:
        if finding.event.tentative:
            best = finding.best
            if best is None:
                continue
            previous = kept[-1].best if kept else None
            if best.method == "part" and previous is not None and previous.record.id == best.record.id:
                continue
        kept.append(finding)
    return tuple(kept)


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
    """The report with the user's code and each match's installed library source, from this machine.

    The lines read here (the user's, a library's, the source cache's) are redacted as they come in, as the
    input was (unless redaction is off for this report); their secrets are added to the report's counts.
    """
    from leafexplain.locate import RedactedSoFar, find_sources

    if report.redacted is None:
        return report._replace(located=find_sources(report.findings, local))
    from leafexplain.redact import Redactor

    redactor = Redactor()
    located = find_sources(report.findings, local, redactor)
    return report._replace(located=located, redacted=RedactedSoFar(report.redacted, redactor))
