"""Explain input of any size in bounded memory: the first distinct errors are kept, the rest counted.

The streamed input already holds only windows around likely errors; this bounds what the windows
yield. A log where every line is an error (millions of distinct ones) would otherwise keep an
event, then a match, for each line: gigabytes, and an explanation nobody reads.
"""

from __future__ import annotations

from collections.abc import Iterable

from leafexplain.extract import events_in, finish
from leafexplain.match import Matcher
from leafexplain.models import ErrorEvent
from leafexplain.pipeline import Report, explain_events
from leafexplain.stream import windows

MAX_EVENTS = 1000  # distinct errors explained, as `leafexplain run` keeps
MAX_EVENT_CHARS = 64 << 20  # and the text they hold (messages, frames), all told


def event_chars(event: ErrorEvent) -> int:
    frames = sum(len(f.file) + len(f.function or "") + len(f.code or "") for f in event.frames)
    return len(event.message) + frames


def collect_events(chunks: Iterable[bytes]) -> tuple[list[ErrorEvent], int]:
    """The errors in the input, identical ones grouped, and how many distinct others were dropped."""
    events: list[ErrorEvent] = []
    dropped = 0
    for window in windows(chunks):
        events.extend(events_in(window.text, bare=window.whole, first_line=window.first_line))
        if len(events) > MAX_EVENTS or sum(map(event_chars, events)) > MAX_EVENT_CHARS:
            events = finish(events)
            kept, total = 0, 0
            for event in events[:MAX_EVENTS]:
                total += event_chars(event)
                if total > MAX_EVENT_CHARS:
                    break
                kept += 1
            dropped += len(events) - kept
            del events[kept:]
    return finish(events), dropped


def explain_bounded(chunks: Iterable[bytes], matcher: Matcher, threshold: float | None = None) -> tuple[Report, int]:
    """`pipeline.explain_stream` with a bound on what is kept: the report and the errors dropped."""
    events, dropped = collect_events(chunks)
    return explain_events(events, matcher, threshold), dropped
