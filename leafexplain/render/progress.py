"""A progress bar on stderr for long work (building the record index), and nothing on a pipe."""

from __future__ import annotations

import time
from collections.abc import Callable

from leafexplain.env import Environment

WIDTH = 30
MIN_INTERVAL = 0.1  # seconds between redraws
SHOW_AFTER = 0.5  # quick work draws nothing at all


def progress_bar(env: Environment, label: str) -> _Bar:
    """`with progress_bar(env, label) as update:` a callback `(done, total)`, or None when stderr is not a
    terminal; the bar is cleared at the end. (A class, not contextlib's decorator: every explanation passes
    here, and contextlib is one more import.)"""
    return _Bar(env, label)


class _Bar:
    def __init__(self, env: Environment, label: str) -> None:
        self.stream, self.label, self.on = env.stderr, label, env.stderr_isatty
        self.started = self.last = 0.0
        self.drawn = False

    def __enter__(self) -> Callable[[int, int], None] | None:
        self.started = time.monotonic()
        return self.update if self.on else None

    def update(self, done: int, total: int) -> None:
        now = time.monotonic()
        if now - self.started < SHOW_AFTER or (now - self.last < MIN_INTERVAL and done < total):
            return
        self.last = now
        share = min(done / total, 1.0) if total else 1.0
        filled = int(share * WIDTH)
        self.stream.write(f"\r\x1b[2Kleafexplain: {self.label} [{'#' * filled}{'.' * (WIDTH - filled)}] {share:4.0%}")
        self.stream.flush()
        self.drawn = True

    def __exit__(self, *exc: object) -> None:
        if self.drawn:
            self.stream.write("\r\x1b[2K")
            self.stream.flush()
