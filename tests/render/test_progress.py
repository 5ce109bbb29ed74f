"""The index-building progress bar: drawn on a terminal's stderr, nothing on a pipe."""

from __future__ import annotations

import io

from leafexplain.env import Environment
from leafexplain.render import progress


def environment(stderr: io.StringIO, *, terminal: bool) -> Environment:
    return Environment(stderr=stderr, stderr_isatty=terminal, width=80)


def test_bar_on_a_terminal_is_drawn_then_cleared(monkeypatch) -> None:
    monkeypatch.setattr(progress, "SHOW_AFTER", 0.0)
    monkeypatch.setattr(progress, "MIN_INTERVAL", 0.0)
    screen = io.StringIO()
    with progress.progress_bar(environment(screen, terminal=True), "indexing records") as update:
        assert update is not None
        update(50, 100)
        update(100, 100)
    text = screen.getvalue()
    assert "indexing records [" in text and "50%" in text and "100%" in text
    assert text.endswith("\r\x1b[2K"), "the line is cleared when the work is done"


def test_nothing_on_a_pipe() -> None:
    pipe = io.StringIO()
    with progress.progress_bar(environment(pipe, terminal=False), "indexing records") as update:
        assert update is None
    assert pipe.getvalue() == ""


def test_quick_work_draws_nothing() -> None:
    screen = io.StringIO()
    with progress.progress_bar(environment(screen, terminal=True), "indexing records") as update:
        update(100, 100)
    assert screen.getvalue() == ""
