"""The on-disk record index: built on first use after the record files change, read as a run needs it.

It holds the catalog's columns and, for each record, where its JSON lies (file, offset, length),
so a run reads the full record only for the matches it shows. Change is detected cheaply: the
record files' paths, sizes and modification times. The file is written atomically (a temporary
file, then a rename), so concurrent builders never leave a torn index behind. Damage found while
reading it (index_file.py) is warned about once: the index is removed, built again in memory from
the record files, and the run goes on with that.
"""

from __future__ import annotations

import errno
import json
import os
import sys
import time
import zlib
from array import array
from collections.abc import Callable, Mapping

from leafexplain.env import cache_dir
from leafexplain.models import Problem, Record
from leafexplain.records.catalog import Catalog, HeadIndex, posting_row, record_wordings, wording_tokens
from leafexplain.records.files import (
    Environ,
    Fingerprint,
    Seal,
    raw_records,
    record_paths,
    scan_files,
    sealed_sources,
    unwrap,
)
from leafexplain.records.index_file import (
    FIELD_SEP,
    INDEX_FORMAT,
    TAG_SEP,
    IndexDamaged,
    IndexUnusable,
    decode_wordings,
    encode_parts,
    encode_wordings,
)
from leafexplain.records.index_read import (
    Column,
    HashedIndex,
    Rows,
    Source,
    file_reader,
    memory_source,
    open_source,
)
from leafexplain.records.schema import validate_record
from leafexplain.safeio import FileTooLarge, NotRegularFile, inside, open_regular, realpath
from leafexplain.version import __version__

Progress = Callable[[int, int], None]  # bytes done, bytes in all
Built = tuple[dict[str, object], list[str], list[tuple[tuple[str, ...], ...]], "array[int]"]
SEALED_INDEX_BYTES = 64 << 20


def build(files: Fingerprint, progress: Progress | None = None) -> Built:
    """Parse and validate every record file (later ids replace earlier).

    Returns the index's metadata, one encoded row per record, each record's pattern words, and where each
    record lies (PLACE_FIELDS for each row in turn).
    """
    position: dict[str, int] = {}  # id -> row
    rows: list[str] = []
    words: list[tuple[tuple[str, ...], ...]] = []
    places = array("q")  # PLACE_FIELDS of each row in turn: numbers in place, at 100,000 records
    problems: list[Problem] = []
    total = sum(f[1] for f in files) or 1
    done = 0
    # id -> where it was last seen (file number and line, as one number), for each source
    seen_in_source: dict[int, dict[str, int]] = {}
    for file_number, (path, size, _, source_number) in enumerate(files):
        try:
            for data, version, loc, found in raw_records(path, size):
                problems.extend(found)
                if data is None and found:
                    continue
                record, invalid = validate_record(data, path, loc[4] or None, version)
                problems.extend(invalid)
                if record is None:
                    continue
                seen = seen_in_source.setdefault(source_number, {})
                earlier = seen.get(record.id)
                if earlier is not None:
                    message = f"duplicate id {record.id} (also in {_origin(files, earlier)}); the later one is used"
                    problems.append(Problem(record.origin, message, field="id"))
                seen[record.id] = (file_number << 32) | loc[4]
                variants = record_wordings(record)
                fields = (
                    record.id, record.repo, record.slug, record.messagePattern, record.language,
                    record.errorClass or "", TAG_SEP.join(record.tags), encode_wordings(variants),
                )  # fmt: skip
                row, place = FIELD_SEP.join(fields), (file_number, *loc[1:])
                # One string per distinct word: 100,000 records share a few thousand words.
                tokens = tuple(tuple(map(sys.intern, t)) for t in wording_tokens(record.messagePattern, variants))
                if record.id in position:
                    rows[position[record.id]] = row
                    words[position[record.id]] = tokens
                    at = position[record.id] * len(place)
                    places[at : at + len(place)] = array("q", place)
                else:
                    position[record.id] = len(rows)
                    rows.append(row)
                    words.append(tokens)
                    places.extend(place)
        except OSError as exc:
            problems.append(Problem(path, f"cannot read: {exc.strerror or exc}"))
        done += size
        if progress:
            progress(done, total)
    meta: dict[str, object] = {
        "format": INDEX_FORMAT,
        "version": __version__,
        "python": sys.version,
        "files": files,
        "problems": [(p.path, p.message, p.line, p.field) for p in problems],
    }
    return meta, rows, words, places


def _origin(files: Fingerprint, seen: int) -> str:
    """A record's origin (as validate_record writes it) from its file number and line."""
    path, line = files[seen >> 32][0], seen & 0xFFFFFFFF
    return f"{path}:{line}" if line else path


def fetcher(files: Fingerprint, rows: Rows, sealed: Mapping[int, str] = {}) -> Callable[[int], Record]:
    """Read one full record from where the index says it lies. `sealed`: the sealed sources' folders, by number."""

    def fetch(index: int) -> Record:
        row = rows[index]
        file_number, offset, length, item, line, crc = rows.place(index, len(files))
        entry = files[file_number]
        if not (isinstance(entry, tuple) and len(entry) == 4 and isinstance(entry[0], str) and type(entry[3]) is int):
            raise IndexDamaged(f"the file of row {index} is out of shape")  # a sealed source's, not compared
        path = entry[0]
        raw = b""
        try:
            with open_regular(path) as handle:  # replaced by a FIFO since the scan: refused, not waited on
                handle.seek(offset)
                raw = handle.read(length)
            parsed = json.loads(raw)
            data, version = unwrap(parsed[item] if item >= 0 else parsed)
        except (OSError, ValueError, RecursionError, IndexError, TypeError, KeyError):
            data, version = None, None
        # A record shipped with leafexplain (a sealed source: the installed records, which the project's own
        # tests validate) read as the very bytes its index's build checked: only their types are checked again.
        # A user's record, or any other bytes, is checked in full (an index is no proof: anyone may write one).
        root = sealed.get(entry[3])
        checked = root is not None and zlib.crc32(raw) == crc and inside(path, root)
        record, _ = validate_record(data, path, line or None, version, checked=checked)
        if record is None or record.id != row[0]:
            raise IndexUnusable(f"{path} changed while leafexplain was reading it")
        return record

    return fetch


def to_catalog(source: Source, sources: list[str], sealed: Mapping[int, str] = {}) -> Catalog:
    meta = source.meta
    rows = Rows(source)
    count, wordings = len(rows), source.length("wording_rows")
    return Catalog(
        ids=Column(rows, "id"),
        repos=Column(rows, "repo"),
        slugs=Column(rows, "slug"),
        patterns=Column(rows, "pattern"),
        languages=Column(rows, "language"),
        classes=Column(rows, "class", lambda v: v or None),
        tags=Column(rows, "tags", lambda v: v.split(TAG_SEP) if v else []),
        token_index=HashedIndex(source, "hashes", "postings", lambda p: posting_row(p) < count),
        unindexed=meta["unindexed"],
        fetch=fetcher(meta["files"], rows, sealed),
        variants=Column(rows, "variants", decode_wordings),
        document_frequency=meta["df"],
        problems=tuple(Problem(path, message, line, field) for path, message, line, field in meta["problems"]),
        sources=tuple(sources),
        heads=HeadIndex(
            HashedIndex(source, "head_hashes", "head_postings", lambda g: g < wordings),
            lambda: source.guarded(lambda: (source.whole("wording_rows"), source.whole("head_totals"))),
        ),
    )


def index_path(paths: list[tuple[str, bool]], environ: Environ) -> str:
    """One index per set of record paths (the default set, or with --records, --no-bundled ...)."""
    key = "\n".join(f"{realpath(p)}|{int(r)}" for p, r in paths)  # a symlink loop resolves without raising
    # A checksum is enough for a file name: the index itself says which files it was built from.
    return os.path.join(cache_dir(environ), "index", f"{zlib.crc32(key.encode()):08x}-{len(paths)}.marshal")


def read_index(
    path: str,
    files: Fingerprint,
    heal: Callable[[IndexDamaged], Source] | None = None,
    seals: Mapping[int, Seal] = {},
) -> Source:
    """The index at `path`, its header read and checked; its body is read as it is used (and healed on damage).

    It is current when it was built from `files` and, for each sealed source, from the folder its seal names.
    """
    # Rows hold a few fields of each record: an index many times the records' size is not ours (a sealed
    # source, the bundled records, is not measured: it is allowed what a pack many times today's takes).
    largest = 16 * sum(f[1] for f in files) + (1 << 20) + SEALED_INDEX_BYTES * len(seals)
    try:
        # Checked once open, never followed: a symlink to /dev/zero, a FIFO or a folder there is not an index.
        handle = open_regular(path, max_bytes=largest, follow=False, buffering=0)
    except FileNotFoundError:
        raise IndexUnusable("no index yet") from None
    except FileTooLarge as exc:
        raise IndexDamaged(f"{exc.size} bytes is far too large for these records") from None
    except NotRegularFile:
        raise IndexDamaged("it is not a regular file") from None
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.EMLINK):  # O_NOFOLLOW met a symlink
            raise IndexDamaged("it is a symlink") from None
        raise IndexUnusable(f"unreadable index ({exc.strerror or exc})") from None
    try:
        source = open_source(file_reader(handle), os.fstat(handle.fileno()).st_size, heal)
        if source.meta.get("python") != sys.version:
            raise IndexUnusable("index from another Python")
        if source.meta.get("seals", {}) != seals or _loose(source.meta.get("files"), seals) != files:
            raise IndexUnusable("record files changed")
    except BaseException:
        handle.close()
        raise
    source.handle = handle  # open while the index is read from, closed with it
    return source


def _loose(files: object, seals: Mapping[int, Seal]) -> object:
    """The index's files that are not in a sealed source (anything else as it is: it will not match)."""
    if not seals or not isinstance(files, list):
        return files
    return [f for f in files if not (isinstance(f, tuple) and len(f) == 4 and f[3] in seals)]


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
    _remove_stale_temporaries(folder)


TEMP_PREFIX = ".index-"
STALE_TEMPORARY_SECONDS = 3600


def _remove_stale_temporaries(folder: str) -> None:
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
        if not seals:
            built = build(files, progress)
        else:
            every, problems, _ = scan_files(paths)
            built = build(every, progress)
            found_sealed = [tuple(p) for p in problems if p not in scan_problems]
            built[0]["problems"] = found_sealed + built[0]["problems"]  # type: ignore[operator]
        built[0]["seals"] = seals
        return built

    if use_cache:

        def heal(exc: IndexDamaged) -> Source:
            warn(f"the record index {path} was damaged ({exc}); rebuilding it")
            try:
                os.unlink(path)
            except OSError:
                pass
            return memory_source(encode_parts(*build_all()))

        try:
            source = read_index(path, files, heal, seals)
        except IndexDamaged as exc:
            warn(f"the record index {path} was damaged ({exc}); rebuilding it")
        except IndexUnusable:
            pass
    if source is None:
        encoded = encode_parts(*build_all(progress))  # the build's lists are emptied as they are encoded
        source = memory_source(encoded)
        if use_cache:
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

        catalog.fetch = _fetch_or_rebuild(catalog, fresh, path, warn)
    return catalog


def _fetch_or_rebuild(
    catalog: Catalog, fresh: Callable[[], Catalog], path: str, warn: Callable[[str], None]
) -> Callable[[int], Record]:
    """A record that is not what its row says: read every record afresh, once, and take it from there.

    Usually a record file changed between the index check and the read: the record is found by its id.
    When the files hold no record with the row's id, the row itself is wrong (an index that passed its
    checksum but is not ours): the records were read from the same files in the same order, so the row's
    position finds it; the index is removed, and the next run builds it again.
    """
    fetch = catalog.fetch
    rebuilt: list[Catalog] = []

    def fetch_or_rebuild(index: int) -> Record:
        try:
            return fetch(index)
        except IndexUnusable as exc:
            if not rebuilt:
                rebuilt.append(fresh())
            wanted = catalog.ids[index]
            found = [n for n, record_id in enumerate(rebuilt[0].ids) if record_id == wanted]
            if found and not isinstance(exc, IndexDamaged):
                return rebuilt[0].record(found[0])
            try:
                os.unlink(path)
            except OSError:
                pass
            reason = exc if isinstance(exc, IndexDamaged) else "a row does not match the record files"
            warn(f"the record index {path} was damaged ({reason}); rebuilding it")
            if found:
                return rebuilt[0].record(found[0])
            if index >= len(rebuilt[0]):
                raise
            return rebuilt[0].record(index)

    return fetch_or_rebuild
