"""Clearing the record index away: a damaged index file removed, and the temporary files of killed writers."""

from __future__ import annotations

import os
import time

TEMP_PREFIX = ".index-"
STALE_TEMPORARY_SECONDS = 3600


def remove_stale_temporaries(folder: str) -> None:
    """A writer killed outright (SIGKILL, power loss) leaves its temporary file: clear old ones."""
    now = time.time()
    try:
        entries = [e for e in os.scandir(folder) if e.name.startswith(TEMP_PREFIX) and e.name.endswith(".tmp")]
    except OSError:
        return
    for entry in entries:
        try:
            if now - entry.stat().st_mtime > STALE_TEMPORARY_SECONDS:
                os.unlink(entry.path)
        except OSError:
            pass  # gone already, or not ours to remove: the next writer tries again


def remove_index(path: str) -> None:
    """The index file gone (damaged: the next run builds it again); one already gone, or not ours to remove, is left."""
    try:
        os.unlink(path)
    except OSError:
        pass
