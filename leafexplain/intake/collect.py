"""From raw input to events, in bounded memory: the windows worth reading, the extractors over each,
and the first distinct errors kept while the rest are counted.

The streamed input already holds only windows around likely errors; the bound is on what the
windows yield. A log where every line is an error (millions of distinct ones) would otherwise
keep an event, then a finding, for each line: gigabytes, and an explanation nobody reads.
"""

from __future__ import annotations

from collections.abc import Iterable

from leafexplain.extract import events_in, finish
from leafexplain.intake.stream import Window, windows
from leafexplain.models import Collected, ErrorEvent, Limits
from leafexplain.redact import Redactor

Source = str | bytes | Iterable[bytes]


def event_chars(event: ErrorEvent) -> int:
    frames = sum(len(f.file) + len(f.function or "") + len(f.code or "") for f in event.frames)
    return len(event.message) + frames + sum(map(len, event.detail))


def bound(events: list[ErrorEvent], limits: Limits) -> tuple[list[ErrorEvent], int]:
    """The events within the limits (identical ones grouped first, then the first ones kept), and how
    many distinct others were dropped."""
    if len(events) <= limits.max_events and sum(map(event_chars, events)) <= limits.max_event_chars:
        return events, 0
    events = finish(events)
    kept, total = 0, 0
    for event in events[: limits.max_events]:
        total += event_chars(event)
        if total > limits.max_event_chars:
            break
        kept += 1
    return events[:kept], len(events) - kept


def window_events(
    window: Window, redactor: Redactor | None, *, bare: bool, typed: bool = False, paragraphs: bool = False
) -> list[ErrorEvent]:
    """The events of one window of the input, with their secrets redacted: every event, and so every output
    and diagnostic made from it, holds the text as redacted. A whole input (a paste, a short output) is redacted
    before its errors are read, guesses and all; a window of a long log has only its events' texts redacted,
    as only they are shown (looking through every window for every kind of secret cost more than reading it)."""
    if redactor is None:
        return events_in(window.text, bare=bare, first_line=window.first_line, typed=typed, paragraphs=paragraphs)
    if window.whole:
        text = redactor(window.text)
        return events_in(text, bare=bare, first_line=window.first_line, typed=typed, paragraphs=paragraphs)
    events = events_in(window.text, bare=bare, first_line=window.first_line, typed=typed, paragraphs=paragraphs)
    return [redactor.event(event) for event in events]


def collect(
    source: Source, limits: Limits = Limits(), *, pasted: bool = True, typed: bool = False, redact: bool = True
) -> Collected:
    """The errors in the input, identical ones grouped, and how many distinct others were dropped.

    `pasted`: the input is text a person gave, so a short one with nothing else in it may be a bare
    message (a program's output never is). `redact`: secrets in it are replaced and counted.
    """
    if isinstance(source, str):
        source = source.encode("utf-8", "surrogatepass")
    chunks = [source] if isinstance(source, bytes) else source
    redactor = Redactor() if redact else None
    events: list[ErrorEvent] = []
    dropped = 0
    for window in windows(chunks):
        whole = pasted and window.whole
        events.extend(window_events(window, redactor, bare=whole, typed=typed, paragraphs=whole))
        events, more = bound(events, limits)
        dropped += more
    return Collected(tuple(finish(events)), dropped, None if redactor is None else redactor.counts())
