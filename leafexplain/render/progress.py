"""A progress bar on stderr for long work (building the record index), and nothing on a pipe."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager

from leafexplain.env import Environment

WIDTH = 30
MIN_INTERVAL = 0.1  # seconds between redraws
SHOW_AFTER = 0.5  # quick work draws nothing at all


@contextmanager
def progress_bar(env: Environment, label: str) -> Iterator[object]:
    """Yields a callback `(done, total)`, or None when stderr is not a terminal."""
    stream = env.stderr
    if not env.stderr_isatty:
        yield None
        return
    started = time.monotonic()
    last = [0.0]
    drawn = [False]

    def update(done: int, total: int) -> None:
        now = time.monotonic()
        if now - started < SHOW_AFTER or (now - last[0] < MIN_INTERVAL and done < total):
            return
        last[0] = now
        share = min(done / total, 1.0) if total else 1.0
        filled = int(share * WIDTH)
        stream.write(f"\r\x1b[2Kleafexplain: {label} [{'#' * filled}{'.' * (WIDTH - filled)}] {share:4.0%}")
        stream.flush()
        drawn[0] = True

    try:
        yield update
    finally:
        if drawn[0]:
            stream.write("\r\x1b[2K")
            stream.flush()
