"""Endings imposed from outside, met quietly: SIGTERM, and usage errors that quote hostile arguments."""

from __future__ import annotations

import contextlib
import io
import signal
import sys
from typing import Any

from leafexplain.sources import printable


class Terminated(BaseException):
    """SIGTERM arrived: unwind (temporary files are removed on the way), then exit 143."""


def _raise_terminated(signum: int, frame: object) -> None:
    raise Terminated


def end_quietly_on_sigterm() -> None:
    """Turn SIGTERM into `Terminated`, so that it ends the run like Ctrl-C does: cleanly, no traceback.

    Only the main thread may set handlers; a handler someone else set (an embedding program) stays.
    """
    if signal.getsignal(signal.SIGTERM) in (signal.SIG_DFL, None):
        with contextlib.suppress(ValueError):  # not the main thread
            signal.signal(signal.SIGTERM, _raise_terminated)


def show_usage_error(exc: Any) -> None:
    """click's usage message, each line with the user's own text in it made printable."""
    buffer = io.StringIO()
    exc.show(file=buffer)
    sys.stderr.write("".join(printable(line) + "\n" for line in buffer.getvalue().splitlines()))
    sys.stderr.flush()
