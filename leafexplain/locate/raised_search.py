"""A bare message (no frames) found in the installed source of the library the text names: its literal part
searched for, bounded in files and time."""

from __future__ import annotations

from leafexplain.locate.files import LocalPaths
from leafexplain.models import ErrorEvent, Raised


def searched_raised(event: ErrorEvent, paths: LocalPaths) -> Raised | None:
    """Where the library the event names raises its message; None when no library is named or nothing is found."""
    return None
