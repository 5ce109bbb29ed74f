"""The ordered registry of extractors: text in, every error event found, in input order."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from leafexplain.extract import pytest as pytest_report
from leafexplain.extract import python, rust
from leafexplain.extract.common import short_class
from leafexplain.models import ErrorEvent

Extractor = Callable[[list[str], list[bool]], list[ErrorEvent]]

# Order matters: an extractor claims the lines it used, and later ones skip them.
EXTRACTORS: tuple[tuple[str, Extractor], ...] = (
    ("rust", rust.extract),
    ("python", python.extract),
    ("pytest", pytest_report.extract),
    ("python-bare", python.extract_bare),
)
# A short text with no recognisable error around it is taken as a pasted message.
MAX_BARE_MESSAGE_LINES = 20


def _bare_message(text: str) -> list[ErrorEvent]:
    stripped = text.strip()
    if not stripped or stripped.count("\n") >= MAX_BARE_MESSAGE_LINES:
        return []
    return [ErrorEvent(language="unknown", error_type=None, message=stripped, extractor="message", line_number=1)]


def drop_summary_repeats(events: list[ErrorEvent]) -> list[ErrorEvent]:
    """pytest's `FAILED ... - Error: msg` line repeats a failure already found in full above it."""
    full = [e for e in events if e.extractor != "pytest-summary"]

    def repeated(summary: ErrorEvent) -> bool:
        head = summary.message.removesuffix("...").strip()
        return any(
            short_class(e.error_type) == short_class(summary.error_type) and e.message.startswith(head) for e in full
        )

    return [e for e in events if e.extractor != "pytest-summary" or not repeated(e)]


def group_identical(events: list[ErrorEvent]) -> list[ErrorEvent]:
    """Identical errors (same type, message and place) become one event with a count."""
    grouped: dict[tuple[object, ...], ErrorEvent] = {}
    for event in events:
        loc = event.location
        key = (event.language, event.error_type, event.message, loc.file if loc else None, loc.line if loc else None)
        if key in grouped:
            grouped[key] = replace(grouped[key], count=grouped[key].count + event.count)
        else:
            grouped[key] = event
    return list(grouped.values())


def events_in(text: str, *, bare: bool = True, first_line: int = 1) -> list[ErrorEvent]:
    """The events of one stretch of text, in order, with line numbers counted from `first_line`.

    `bare`: the text is the whole input, so with nothing else found it may be a pasted message.
    """
    lines = text.split("\n")
    claimed = [False] * len(lines)
    events: list[ErrorEvent] = []
    for _name, extractor in EXTRACTORS:
        events.extend(extractor(lines, claimed))
    if not events and bare:
        events = _bare_message(text)
    events.sort(key=lambda e: e.line_number)
    if first_line != 1:
        events = [replace(e, line_number=e.line_number + first_line - 1) for e in events]
    return events


def extract_events(text: str) -> list[ErrorEvent]:
    """Every event in a whole text, identical ones grouped."""
    return finish(events_in(text))


def finish(events: list[ErrorEvent]) -> list[ErrorEvent]:
    return group_identical(drop_summary_repeats(events))
