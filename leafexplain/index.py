"""The on-disk record index: built on first use after the record files change, read in one go.

It holds the catalog's columns and, for each record, where its JSON lies (file, offset, length),
so a run reads the full record only for the matches it shows. Change is detected cheaply: the
record files' paths, sizes and modification times. The file is written atomically (a temporary
file, then a rename), so concurrent builders never leave a torn index behind.
"""

from __future__ import annotations

import contextlib
import json
import marshal
import os
import stat
import sys
import tempfile
import time
import zlib
from array import array
from bisect import bisect_left
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from leafexplain import __version__
from leafexplain.cachedir import cache_dir
from leafexplain.catalog import Catalog, build_token_index
from leafexplain.models import Problem, Record
from leafexplain.patterns import pattern_text
from leafexplain.records import Environ, iter_record_files, raw_records, record_sources, unwrap
from leafexplain.schema import validate_record

INDEX_FORMAT = 3  # 3: a checksum after the magic line
Fingerprint = list[tuple[str, int, int, int]]  # (path, size, mtime_ns, source number) of each record file
Progress = Callable[[int, int], None]  # bytes done, bytes in all


class IndexUnusable(Exception):
    """The index file is missing, stale, from another version, or damaged."""


class IndexDamaged(IndexUnusable):
    """The index file is not what leafexplain wrote (truncated, corrupt): worth one warning."""


def scan_files(sources: list[tuple[Path, bool]]) -> tuple[Fingerprint, list[Problem], list[str]]:
    """Every record file in load order, with its size and time, and which source it is from.

    The source's number goes into the fingerprint too: a duplicate id within one source is a
    mistake to report, while a later source replacing an id is how users override records.
    """
    files: Fingerprint = []
    problems: list[Problem] = []
    used: list[str] = []
    for source_number, (root, required) in enumerate(sources):
        if not root.exists():
            if required:
                problems.append(Problem(str(root), "no such file or folder"))
            continue
        used.append(str(root))
        for path in iter_record_files(root):
            try:
                st = path.stat()
            except OSError as exc:
                problems.append(Problem(str(path), f"cannot read: {exc.strerror or exc}"))
                continue
            if not stat.S_ISREG(st.st_mode):  # a FIFO or a device would block or never end
                problems.append(Problem(str(path), "not a regular file"))
                continue
            files.append((str(path), st.st_size, st.st_mtime_ns, source_number))
    return files, problems, used


# A row of the index: the fields the matcher reads, then where the full record lies.
ROW_FIELDS = ("id", "repo", "slug", "pattern", "language", "class", "tags", "file", "offset", "length", "item", "line")
FIELD_SEP, TAG_SEP = "\x1f", "\x1e"  # validation keeps both out of every indexed field
MAGIC_NAME = b"LEAFEXPLAIN-INDEX"
# The format's number is in the magic line; after it, the checksum of all that follows, checked
# before anything is parsed (marshal trusts its input: a corrupted size could ask for gigabytes).
MAGIC = MAGIC_NAME + b"/3\n"


def build(
    files: Fingerprint, progress: Progress | None = None
) -> tuple[dict[str, object], list[str], list[tuple[str, ...]]]:
    """Parse and validate every record file (later ids replace earlier).

    Returns the index's metadata, one encoded row per record, and each record's pattern words.
    """
    position: dict[str, int] = {}  # id -> row
    rows: list[str] = []
    words: list[tuple[str, ...]] = []
    problems: list[Problem] = []
    total = sum(f[1] for f in files) or 1
    done = 0
    seen_in_source: dict[tuple[int, str], str] = {}
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
                earlier = seen_in_source.get((source_number, record.id))
                if earlier:
                    message = f"duplicate id {record.id} (also in {earlier}); the later one is used"
                    problems.append(Problem(record.origin, message, field="id"))
                seen_in_source[(source_number, record.id)] = record.origin
                fields = (
                    record.id, record.repo, record.slug, record.messagePattern, record.language,
                    record.errorClass or "", TAG_SEP.join(record.tags), *map(str, (file_number, *loc[1:])),
                )  # fmt: skip
                row = FIELD_SEP.join(fields)
                if record.id in position:
                    rows[position[record.id]] = row
                    words[position[record.id]] = pattern_text(record.messagePattern).tokens
                else:
                    position[record.id] = len(rows)
                    rows.append(row)
                    words.append(pattern_text(record.messagePattern).tokens)
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
    return meta, rows, words


def encode(meta: dict[str, object], rows: list[str], words: list[tuple[str, ...]]) -> bytes:
    """Metadata, then flat arrays (row offsets, word hashes and their rows), then the rows' text.

    Flat arrays and one text blob load in a few copies, where a marshalled list of 100,000
    small objects takes most of a second to rebuild.
    """
    token_index, unindexed = build_token_index(words)
    pairs = sorted((zlib.crc32(word.encode()), n) for word, ns in token_index.items() for n in ns)
    hashes = array("I", (h for h, _ in pairs))
    postings = array("I", (n for _, n in pairs))
    blob = "".join(rows).encode("utf-8")
    offsets = array("Q", [0])
    total = 0
    for row in rows:
        total += len(row.encode("utf-8"))
        offsets.append(total)
    parts = []
    for arr in (offsets, hashes, postings):
        raw = arr.tobytes()
        parts += [len(raw).to_bytes(8, "little"), raw]
    parts.append(blob)
    header = marshal.dumps({**meta, "unindexed": unindexed, "count": len(rows)})
    return sealed(b"".join([len(header).to_bytes(8, "little"), header, *parts]))


def sealed(content: bytes) -> bytes:
    """The magic line, the checksum of the content, the content: a torn or corrupted file is caught
    before any of it is parsed."""
    return MAGIC + zlib.crc32(content).to_bytes(4, "little") + content


def decode(data: bytes) -> tuple[dict[str, object], Rows, HashedIndex]:
    """The index's parts, or IndexDamaged: whatever the bytes, nothing else is raised."""
    if not data.startswith(MAGIC):
        if data.startswith(MAGIC_NAME):
            raise IndexUnusable("index from another version")  # an upgrade, not damage: rebuilt silently
        raise IndexDamaged("not an index file")
    start = len(MAGIC) + 4
    if int.from_bytes(data[len(MAGIC) : start], "little") != zlib.crc32(memoryview(data)[start:]):
        raise IndexDamaged("its checksum does not match")
    try:
        return _decode(data)
    except IndexUnusable:
        raise
    except Exception as exc:  # marshal and array meet arbitrary bytes here: any failure means damage
        raise IndexDamaged(f"{type(exc).__name__} while reading it") from None


def _decode(data: bytes) -> tuple[dict[str, object], Rows, HashedIndex]:
    pos = len(MAGIC) + 4
    size = int.from_bytes(data[pos : pos + 8], "little")
    if size > len(data) - pos - 8 or data[pos + 8 : pos + 9] not in (b"{", b"\xfb"):
        raise IndexDamaged("its header is cut short")
    meta = marshal.loads(data[pos + 8 : pos + 8 + size])
    pos += 8 + size
    if not isinstance(meta, dict):
        raise IndexDamaged("its header is not a table")
    if meta.get("format") != INDEX_FORMAT or meta.get("version") != __version__:
        raise IndexUnusable("index from another version")  # an upgrade, not damage: rebuilt silently
    arrays = []
    for code in ("Q", "I", "I"):
        size = int.from_bytes(data[pos : pos + 8], "little")
        arr = array(code)
        arr.frombytes(data[pos + 8 : pos + 8 + size])
        arrays.append(arr)
        pos += 8 + size
    offsets, hashes, postings = arrays
    blob = data[pos:]
    count = meta.get("count")
    if not isinstance(count, int) or len(offsets) != count + 1 or offsets[0] != 0 or offsets[-1] != len(blob):
        raise IndexDamaged("its sizes disagree")
    _check_meta(meta, count)
    return meta, Rows(blob, offsets), HashedIndex(hashes, postings)


def _check_meta(meta: dict[Any, Any], count: int) -> None:
    """The header's fields have the shapes `to_catalog` relies on."""
    unindexed, problems, files = meta.get("unindexed"), meta.get("problems"), meta.get("files")
    ok = (
        isinstance(unindexed, list)
        and all(isinstance(n, int) and 0 <= n < count for n in unindexed)
        and isinstance(problems, list)
        and all(isinstance(p, tuple) and len(p) == 4 and all(isinstance(v, str) for v in p[:2]) for p in problems)
        and isinstance(files, list)
    )
    if not ok:
        raise IndexDamaged("its header fields are of the wrong kinds")


class Rows:
    """The index rows, decoded one at a time when asked for."""

    def __init__(self, blob: bytes, offsets: array[int]) -> None:
        self.blob, self.offsets = blob, offsets
        self.cache: dict[int, list[str]] = {}

    def __len__(self) -> int:
        return len(self.offsets) - 1

    def __getitem__(self, index: int) -> list[str]:
        row = self.cache.get(index)
        if row is None:
            if not 0 <= index < len(self):
                raise IndexError(index)
            row = self.blob[self.offsets[index] : self.offsets[index + 1]].decode("utf-8").split(FIELD_SEP)
            self.cache[index] = row
        return row


class Column(Sequence[Any]):
    """One field of every row, as a read-only sequence."""

    def __init__(self, rows: Rows, field: str, convert: Callable[[str], Any] = str) -> None:
        self.rows, self.position, self.convert = rows, ROW_FIELDS.index(field), convert

    def __len__(self) -> int:
        return len(self.rows)

    def __getitem__(self, index: int) -> Any:  # type: ignore[override]
        return self.convert(self.rows[index][self.position])


class HashedIndex:
    """Word -> rows, looked up by the word's checksum in a sorted array (a collision only adds a
    candidate, which the pattern then rejects)."""

    def __init__(self, hashes: array[int], postings: array[int]) -> None:
        self.hashes, self.postings = hashes, postings

    def get(self, word: str, default: Sequence[int] = ()) -> Sequence[int]:
        key = zlib.crc32(word.encode())
        i = bisect_left(self.hashes, key)
        found = []
        while i < len(self.hashes) and self.hashes[i] == key:
            found.append(self.postings[i])
            i += 1
        return found or default


def fetcher(files: Fingerprint, rows: Rows) -> Callable[[int], Record]:
    """Read one full record from where the index says it lies."""

    def fetch(index: int) -> Record:
        row = rows[index]
        file_number, offset, length, item, line = (int(v) for v in row[7:12])
        path = files[file_number][0]
        try:
            with open(path, "rb") as handle:
                handle.seek(offset)
                raw = handle.read(length)
            parsed = json.loads(raw)
            data, version = unwrap(parsed[item] if item >= 0 else parsed)
        except (OSError, ValueError, RecursionError, IndexError, TypeError, KeyError):
            data, version = None, None
        record, _ = validate_record(data, path, line or None, version)
        if record is None or record.id != row[0]:
            raise IndexUnusable(f"{path} changed while leafexplain was reading it")
        return record

    return fetch


def to_catalog(meta: dict[str, Any], rows: Rows, words: HashedIndex, sources: list[str]) -> Catalog:
    files = meta["files"]
    return Catalog(
        ids=Column(rows, "id"),
        repos=Column(rows, "repo"),
        slugs=Column(rows, "slug"),
        patterns=Column(rows, "pattern"),
        languages=Column(rows, "language"),
        classes=Column(rows, "class", lambda v: v or None),
        tags=Column(rows, "tags", lambda v: v.split(TAG_SEP) if v else []),
        token_index=words,  # type: ignore[arg-type]
        unindexed=meta["unindexed"],
        fetch=fetcher(files, rows),
        problems=tuple(Problem(path, message, line, field) for path, message, line, field in meta["problems"]),
        sources=tuple(sources),
    )


def index_path(sources: list[tuple[Path, bool]], environ: Environ) -> Path:
    """One index per set of sources (the default set, or with --records, --no-bundled ...)."""
    key = "\n".join(f"{p.resolve()}|{int(r)}" for p, r in sources)
    # A checksum is enough for a file name: the index itself says which files it was built from.
    return cache_dir(environ) / "index" / f"{zlib.crc32(key.encode()):08x}-{len(sources)}.marshal"


def read_index(path: Path, files: Fingerprint) -> tuple[dict[str, Any], Rows, HashedIndex]:
    try:
        size = path.stat().st_size
        # Rows hold a few fields of each record: an index many times the records' size is not ours.
        if size > 8 * sum(f[1] for f in files) + (1 << 20):
            raise IndexDamaged(f"{size} bytes is far too large for these records")
        data = path.read_bytes()
    except FileNotFoundError:
        raise IndexUnusable("no index yet") from None
    except OSError as exc:
        raise IndexUnusable(f"unreadable index ({exc.strerror or exc})") from None
    meta, rows, words = decode(data)
    if meta.get("format") != INDEX_FORMAT or meta.get("version") != __version__:
        raise IndexUnusable("index from another version")
    if meta.get("python") != sys.version:
        raise IndexUnusable("index from another Python")
    if meta.get("files") != files:
        raise IndexUnusable("record files changed")
    return meta, rows, words


def write_index(path: Path, data: bytes) -> None:
    """Atomically: readers see the old index or the new one, never part of one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=TEMP_PREFIX, suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    _remove_stale_temporaries(path.parent)


TEMP_PREFIX = ".index-"
STALE_TEMPORARY_SECONDS = 3600


def _remove_stale_temporaries(folder: Path) -> None:
    """A writer killed outright (SIGKILL, power loss) leaves its temporary file: clear old ones."""
    now = time.time()
    with contextlib.suppress(OSError):
        for entry in os.scandir(folder):
            if entry.name.startswith(TEMP_PREFIX) and entry.name.endswith(".tmp"):
                with contextlib.suppress(OSError):
                    if now - entry.stat().st_mtime > STALE_TEMPORARY_SECONDS:
                        os.unlink(entry.path)


def open_catalog(
    extra: list[str] | tuple[str, ...] = (),
    *,
    bundled: bool = True,
    configured: bool = True,
    environ: Environ = os.environ,
    progress: Progress | None = None,
    warn: Callable[[str], None] = lambda message: None,
    use_cache: bool = True,
) -> Catalog:
    """The catalog for these sources: from the index when it is current, else built (and saved)."""
    sources = record_sources(extra, bundled=bundled, configured=configured, environ=environ)
    files, scan_problems, used = scan_files(sources)
    path = index_path(sources, environ)
    loaded = None
    if use_cache:
        try:
            loaded = read_index(path, files)
        except IndexDamaged as exc:
            warn(f"the record index {path} was damaged ({exc}); rebuilding it")
            loaded = None
        except IndexUnusable:
            loaded = None
    if loaded is None:
        meta, row_texts, words = build(files, progress)
        encoded = encode(meta, row_texts, words)
        loaded = decode(encoded)
        if use_cache:
            try:
                write_index(path, encoded)
            except OSError as exc:
                warn(f"cannot write the record index in {path.parent} ({exc.strerror or exc}); working without it")
            else:
                if not extra and bundled and configured:
                    write_completion_lists(loaded[1], environ)
    catalog = to_catalog(*loaded, used)
    catalog.problems = tuple(scan_problems) + catalog.problems
    if use_cache:

        def fresh() -> Catalog:
            return open_catalog(extra, bundled=bundled, configured=configured, environ=environ, use_cache=False)

        catalog.fetch = _fetch_or_rebuild(catalog, fresh)
    return catalog


def _fetch_or_rebuild(catalog: Catalog, fresh: Callable[[], Catalog]) -> Callable[[int], Record]:
    """A record file changed between the index check and the read: read every record afresh, once."""
    fetch = catalog.fetch
    rebuilt: list[Catalog] = []

    def fetch_or_rebuild(index: int) -> Record:
        try:
            return fetch(index)
        except IndexUnusable:
            if not rebuilt:
                rebuilt.append(fresh())
            wanted = catalog.ids[index]
            found = [n for n, record_id in enumerate(rebuilt[0].ids) if record_id == wanted]
            if not found:
                raise
            return rebuilt[0].record(found[0])

    return fetch_or_rebuild


def write_completion_lists(rows: Rows, environ: Environ) -> None:
    """Plain lists for shell completion, so that a TAB needs no Python (default sources only)."""
    from leafexplain.cachedir import completion_list

    fields = {name: ROW_FIELDS.index(name) for name in ("id", "slug", "repo", "tags")}
    values: dict[str, set[str]] = {"ids": set(), "slugs": set(), "repos": set(), "tags": set()}
    for i in range(len(rows)):
        row = rows[i]
        values["ids"].add(row[fields["id"]])
        values["slugs"].add(row[fields["slug"]])
        values["repos"].add(row[fields["repo"]])
        values["tags"].update(t for t in row[fields["tags"]].split(TAG_SEP) if t)
    for kind, items in values.items():
        target = completion_list(kind, environ)
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{kind}-")
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write("".join(f"{v}\n" for v in sorted(items)))
            os.replace(tmp, target)
        except OSError:
            return  # completion falls back to asking leafexplain
