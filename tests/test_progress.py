"""The index-building progress bar: drawn on a terminal's stderr, nothing on a pipe."""

from __future__ import annotations

import io

from leafexplain import progress
from leafexplain.env import Environment


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def environment(stderr: io.StringIO) -> Environment:
    return Environment(stdout_isatty=False, stdin_isatty=False, width=80, no_color=False, stderr=stderr)


def test_bar_on_a_terminal_is_drawn_then_cleared(monkeypatch) -> None:
    monkeypatch.setattr(progress, "SHOW_AFTER", 0.0)
    monkeypatch.setattr(progress, "MIN_INTERVAL", 0.0)
    screen = FakeTerminal()
    with progress.progress_bar(environment(screen), "indexing records") as update:
        assert update is not None
        update(50, 100)
        update(100, 100)
    text = screen.getvalue()
    assert "indexing records [" in text and "50%" in text and "100%" in text
    assert text.endswith("\r\x1b[2K"), "the line is cleared when the work is done"


def test_nothing_on_a_pipe() -> None:
    pipe = io.StringIO()
    with progress.progress_bar(environment(pipe), "indexing records") as update:
        assert update is None
    assert pipe.getvalue() == ""


def test_quick_work_draws_nothing() -> None:
    screen = FakeTerminal()
    with progress.progress_bar(environment(screen), "indexing records") as update:
        update(100, 100)
    assert screen.getvalue() == ""
