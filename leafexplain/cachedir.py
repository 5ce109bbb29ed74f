"""Where leafexplain keeps what it can rebuild: the record index and the completion lists."""

from __future__ import annotations

import os
from pathlib import Path


def cache_dir(environ: dict[str, str] | os._Environ[str] = os.environ) -> Path:
    base = environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "leafexplain"


def completion_list(kind: str, environ: dict[str, str] | os._Environ[str] = os.environ) -> Path:
    """`ids`, `slugs`, `repos` or `tags`: one value a line, for shell completion without Python."""
    return cache_dir(environ) / "complete" / f"{kind}.txt"
