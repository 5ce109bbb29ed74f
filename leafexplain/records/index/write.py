"""Writing the record index to its file: whole or not at all, so that readers see the old index or the new one."""

from __future__ import annotations

import os

from leafexplain.records.index.clean import TEMP_PREFIX, remove_stale_temporaries


def write_index(path: str, data: bytes | tuple[bytes, bytearray]) -> None:
    """Atomically: readers see the old index or the new one, never part of one. `data`: whole, or in parts."""
    import tempfile  # only when writing: it imports random, shutil and more

    folder = os.path.dirname(path)
    os.makedirs(folder, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=TEMP_PREFIX, suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            for part in (data,) if isinstance(data, bytes) else data:
                handle.write(part)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    remove_stale_temporaries(folder)
