"""The on-disk record index: built on first use after the record files change, read as a run needs it, healed on damage.

It holds the catalog's columns and, for each record, where its JSON lies (file, offset, length),
so a run reads the full record only for the matches it shows. One module per job:

- `build`: every record file parsed and validated into rows (later ids replace earlier);
- `format`: the file's layout and its bytes. A magic line with the format's number, the CRC-32 of
  the header, the header (marshal: format, version, Python, the record files and their seals,
  problems, counts, each section's place, a CRC-32 per 4 KiB block of the body), then the body: the
  rows' text, then flat arrays (the word index and the head index of the distinct wordings, the rows
  that have each, each record's place). Raise
  `INDEX_FORMAT` when any of it changes: an index of another format or version is rebuilt silently;
- `write`: atomically (a temporary file, then a rename), so concurrent builders never leave a torn
  index behind;
- `read`: the file opened without following a symlink, bounded, its header checked; current when it
  was built from the same record files (paths, sizes and modification times; a sealed folder, the
  installed records, by its one stat) by the same leafexplain and Python; its body read block by
  block as used, each block checked the first time;
- `columns`: the catalog over it (records/catalog.py): rows decoded as asked for, words looked up, a
  full record read from its file and checked against its row;
- `heal`: damage found while reading (a checksum that fails, a place out of range, a row that does
  not match its record file) is warned about once, the file is removed, the index is built again in
  memory from the record files, and the run goes on with that; the next run writes it again;
- `clean`: the damaged file removed, and temporary files that killed writers left behind.

The index is rebuilt when the record files change (one is added, removed, resized or touched),
when leafexplain or Python is upgraded, and when it is damaged.
"""

from __future__ import annotations

import os
import zlib
from collections.abc import Callable

from leafexplain.env import cache_dir
from leafexplain.records.catalog import Catalog
from leafexplain.records.files import Environ, record_paths, scan_files, sealed_sources
from leafexplain.records.index.columns import to_catalog
from leafexplain.records.index.format import IndexDamaged, IndexUnusable, encode_parts
from leafexplain.records.index.heal import fetch_or_rebuild, healer, warn_damaged
from leafexplain.records.index.read import memory_source, read_index
from leafexplain.safeio import realpath

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: the everyday path does without it
if TYPE_CHECKING:
    from leafexplain.records.index.build import Built, Progress


def index_path(paths: list[tuple[str, bool]], environ: Environ) -> str:
    """One index per set of record paths (the default set, or with --records, --no-bundled ...)."""
    key = "\n".join(f"{realpath(p)}|{int(r)}" for p, r in paths)  # a symlink loop resolves without raising
    # A checksum is enough for a file name: the index itself says which files it was built from.
    return os.path.join(cache_dir(environ), "index", f"{zlib.crc32(key.encode()):08x}-{len(paths)}.marshal")


def load(
    extra: list[str] | tuple[str, ...] = (),
    *,
    bundled: bool = True,
    configured: bool = True,
    environ: Environ = os.environ,
    progress: Progress | None = None,
    warn: Callable[[str], None] = lambda message: None,
    use_cache: bool = True,
) -> Catalog:
    """The catalog of these record paths: from the index when it is current, else built (and saved)."""
    paths = record_paths(extra, bundled=bundled, configured=configured, environ=environ)
    seals = sealed_sources(paths) if use_cache else {}
    files, scan_problems, used = scan_files(paths, seals)
    path = index_path(paths, environ)
    source = None
    saved = False

    def build_all(progress: Progress | None = None) -> Built:
        """Every record file read, a sealed source's too; what its scan found is kept with the index."""
        # Imported only when building: a run that reads a current index never loads the builder.
        from leafexplain.records.index.build import build_rows

        if not seals:
            built = build_rows(files, progress)
        else:
            every, problems, _ = scan_files(paths)
            built = build_rows(every, progress)
            found_sealed = [tuple(p) for p in problems if p not in scan_problems]
            built[0]["problems"] = found_sealed + built[0]["problems"]  # type: ignore[operator]
        built[0]["seals"] = seals
        return built

    if use_cache:
        try:
            source = read_index(path, files, healer(path, build_all, warn), seals)
        except IndexDamaged as exc:
            warn_damaged(warn, path, exc)
        except IndexUnusable:
            pass
    if source is None:
        encoded = encode_parts(*build_all(progress))  # the build's lists are emptied as they are encoded
        source = memory_source(encoded)
        if use_cache:
            from leafexplain.records.index.write import write_index  # only when writing, as the build

            try:
                write_index(path, encoded)
            except OSError as exc:
                folder = os.path.dirname(path)
                warn(f"cannot write the record index in {folder} ({exc.strerror or exc}); working without it")
            else:
                saved = True
    catalog = to_catalog(source, used, {number: paths[number][0] for number in seals})
    catalog.problems = tuple(scan_problems) + catalog.problems
    catalog.saved = saved
    if use_cache:

        def fresh() -> Catalog:
            return load(extra, bundled=bundled, configured=configured, environ=environ, use_cache=False)

        catalog.fetch = fetch_or_rebuild(catalog, fresh, path, warn)
    return catalog
