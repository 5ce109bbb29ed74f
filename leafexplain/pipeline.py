"""The explain pipeline: text -> events -> matches. Nothing here prints."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from leafexplain.exitcodes import ExitStatus
from leafexplain.extract import events_in, extract_events, finish
from leafexplain.match import Matcher
from leafexplain.models import ErrorEvent, Match, Record
from leafexplain.stream import windows


@dataclass(frozen=True)
class Report:
    matches: tuple[Match, ...]
    threshold: float

    @property
    def exit_status(self) -> ExitStatus:
        if any(m.matches for m in self.matches):
            return ExitStatus.EXPLAINED
        return ExitStatus.NOTHING_MATCHED


def explain_text(text: str, records: Sequence[Record] | Matcher, threshold: float | None = None) -> Report:
    return explain_events(extract_events(text), records, threshold)


def explain_stream(
    chunks: Iterable[bytes], records: Sequence[Record] | Matcher, threshold: float | None = None
) -> Report:
    """Input of any size, read once in pieces: only the windows around likely errors are parsed."""
    events: list[ErrorEvent] = []
    for window in windows(chunks):
        events.extend(events_in(window.text, bare=window.whole, first_line=window.first_line))
    return explain_events(finish(events), records, threshold)


def explain_events(events: list[ErrorEvent], records: Sequence[Record] | Matcher, threshold: float | None) -> Report:
    matcher = records if isinstance(records, Matcher) else Matcher(records)
    matches = tuple(matcher.match(event, threshold=threshold) for event in events)
    return Report(matches=matches, threshold=matcher.threshold if threshold is None else threshold)
