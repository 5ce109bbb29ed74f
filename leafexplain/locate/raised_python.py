"""Where a Python event was raised in a library: the innermost frame in site-packages, dist-packages or the
standard library, read from disk when the file is a library's in fact (locate/raised.py's trust model)."""

from __future__ import annotations

from leafexplain.locate.files import LocalPaths
from leafexplain.models import ErrorEvent, Raised


def python_raised(event: ErrorEvent, paths: LocalPaths) -> Raised | None:
    """The library, version, raising lines and links of a Python event; None when no frame is a library's."""
    return None
