"""The explain pipeline: text -> events -> matches. Nothing here prints."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from leafexplain.exitcodes import ExitStatus
from leafexplain.extract import extract_events
from leafexplain.match import Matcher
from leafexplain.models import Match, Record


@dataclass(frozen=True, slots=True)
class Report:
    matches: tuple[Match, ...]
    threshold: float

    @property
    def exit_status(self) -> ExitStatus:
        if any(m.matches for m in self.matches):
            return ExitStatus.EXPLAINED
        return ExitStatus.NOTHING_MATCHED


def explain_text(text: str, records: Sequence[Record] | Matcher, threshold: float | None = None) -> Report:
    matcher = records if isinstance(records, Matcher) else Matcher(records)
    events = extract_events(text)
    matches = tuple(matcher.match(event, threshold=threshold) for event in events)
    return Report(matches=matches, threshold=matcher.threshold if threshold is None else threshold)
