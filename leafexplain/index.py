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
import sys
import tempfile
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

INDEX_FORMAT = 2
Fingerprint = list[tuple[str, int, int, int]]  # (path, size, mtime_ns, source number) of each record file
Progress = Callable[[int, int], None]  # bytes done, bytes in all


class IndexUnusable(Exception):
    """The index file is missing, stale, from another version, or damaged."""


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
            files.append((str(path), st.st_size, st.st_mtime_ns, source_number))
    return files, problems, used


# A row of the index: the fields the matcher reads, then where the full record lies.
ROW_FIELDS = ("id", "repo", "slug", "pattern", "language", "class", "tags", "file", "offset", "length", "item", "line")
FIELD_SEP, TAG_SEP = "\x1f", "\x1e"  # validation keeps both out of every indexed field
MAGIC = b"LEAFEXPLAIN-INDEX\n"


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
    header = marshal.dumps({**meta, "unindexed": unindexed, "count": len(rows)})
    parts = [MAGIC, len(header).to_bytes(8, "little"), header]
    for arr in (offsets, hashes, postings):
        raw = arr.tobytes()
        parts += [len(raw).to_bytes(8, "little"), raw]
    parts.append(blob)
    return b"".join(parts)


def decode(data: bytes) -> tuple[dict[str, object], Rows, HashedIndex]:
    if not data.startswith(MAGIC):
        raise IndexUnusable("not an index file")
    try:
        pos = len(MAGIC)
        size = int.from_bytes(data[pos : pos + 8], "little")
        meta = marshal.loads(data[pos + 8 : pos + 8 + size])
        pos += 8 + size
        arrays = []
        for code in ("Q", "I", "I"):
            size = int.from_bytes(data[pos : pos + 8], "little")
            arr = array(code)
            arr.frombytes(data[pos + 8 : pos + 8 + size])
            arrays.append(arr)
            pos += 8 + size
    except (ValueError, EOFError, TypeError) as exc:
        raise IndexUnusable(f"damaged index ({exc})") from None
    offsets, hashes, postings = arrays
    blob = data[pos:]
    if not isinstance(meta, dict) or len(offsets) != meta.get("count", -1) + 1 or offsets[-1] != len(blob):
        raise IndexUnusable("damaged index (sizes disagree)")
    return meta, Rows(blob, offsets), HashedIndex(hashes, postings)


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
        with open(path, "rb") as handle:
            handle.seek(offset)
            raw = handle.read(length)
        parsed = json.loads(raw)
        data, version = unwrap(parsed[item] if item >= 0 else parsed)
        record, _ = validate_record(data, path, line or None, version)
        if record is None:
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
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".index-", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


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
    return catalog


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
