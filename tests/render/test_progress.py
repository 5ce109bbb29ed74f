"""The index-building progress bar: drawn on a terminal's stderr, nothing on a pipe."""

from __future__ import annotations

from leafexplain.render import progress


def test_bar_on_a_terminal_is_drawn_then_cleared(monkeypatch, environment) -> None:
    monkeypatch.setattr(progress, "SHOW_AFTER", 0.0)
    monkeypatch.setattr(progress, "MIN_INTERVAL", 0.0)
    screen = environment(tty=True, COLUMNS="80")
    with progress.progress_bar(screen, "indexing records") as update:
        assert update is not None
        update(50, 100)
        update(100, 100)
    text = screen.said
    assert "indexing records [" in text and "50%" in text and "100%" in text
    assert text.endswith("\r\x1b[2K"), "the line is cleared when the work is done"


def test_nothing_on_a_pipe(environment) -> None:
    pipe = environment(tty=False, COLUMNS="80")
    with progress.progress_bar(pipe, "indexing records") as update:
        assert update is None
    assert pipe.said == ""


def test_quick_work_draws_nothing(environment) -> None:
    screen = environment(tty=True, COLUMNS="80")
    with progress.progress_bar(screen, "indexing records") as update:
        update(100, 100)
    assert screen.said == ""
