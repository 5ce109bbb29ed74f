"""From raw input to events, in bounded memory: the windows worth reading, the extractors over each,
and the first distinct errors kept while the rest are counted.

The streamed input already holds only windows around likely errors; the bound is on what the
windows yield. A log where every line is an error (millions of distinct ones) would otherwise
keep an event, then a finding, for each line: gigabytes, and an explanation nobody reads.
"""

from __future__ import annotations

from collections.abc import Iterable

from leafexplain.extract import events_in, finish
from leafexplain.intake.stream import windows
from leafexplain.models import Collected, ErrorEvent, Limits

Source = str | bytes | Iterable[bytes]


def event_chars(event: ErrorEvent) -> int:
    frames = sum(len(f.file) + len(f.function or "") + len(f.code or "") for f in event.frames)
    return len(event.message) + frames


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


def collect(source: Source, limits: Limits = Limits(), *, pasted: bool = True, typed: bool = False) -> Collected:
    """The errors in the input, identical ones grouped, and how many distinct others were dropped.

    `pasted`: the input is text a person gave, so a short one with nothing else in it may be a bare
    message (a program's output never is).
    """
    if isinstance(source, str):
        source = source.encode("utf-8", "surrogatepass")
    chunks = [source] if isinstance(source, bytes) else source
    events: list[ErrorEvent] = []
    dropped = 0
    for window in windows(chunks):
        events.extend(
            events_in(
                window.text,
                bare=pasted and window.whole,
                first_line=window.first_line,
                typed=typed,
                paragraphs=pasted and window.whole,
            )
        )
        events, more = bound(events, limits)
        dropped += more
    return Collected(tuple(finish(events)), dropped)
