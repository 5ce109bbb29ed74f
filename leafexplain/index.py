"""The on-disk record index: built on first use after the record files change, read in one go.

It holds the catalog's columns and, for each record, where its JSON lies (file, offset, length),
so a run reads the full record only for the matches it shows. Change is detected cheaply: the
record files' paths, sizes and modification times. The file is written atomically (a temporary
file, then a rename), so concurrent builders never leave a torn index behind.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import marshal
import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from leafexplain import __version__
from leafexplain.cachedir import cache_dir
from leafexplain.catalog import Catalog, build_token_index
from leafexplain.models import Problem, Record
from leafexplain.patterns import pattern_text
from leafexplain.records import Environ, Location, iter_record_files, raw_records, record_sources, unwrap
from leafexplain.schema import validate_record

INDEX_FORMAT = 1
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


def build(files: Fingerprint, progress: Progress | None = None) -> dict[str, object]:
    """Parse and validate every record file into the index's columns (later ids replace earlier)."""
    position: dict[str, int] = {}  # id -> row
    rows: list[tuple[str, str, str, str, str, str | None, list[str], Location, tuple[str, ...]]] = []
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
                line = loc[4] or None
                record, invalid = validate_record(data, path, line, version)
                problems.extend(invalid)
                if record is None:
                    continue
                earlier = seen_in_source.get((source_number, record.id))
                if earlier:
                    message = f"duplicate id {record.id} (also in {earlier}); the later one is used"
                    problems.append(Problem(record.origin, message, field="id"))
                seen_in_source[(source_number, record.id)] = record.origin
                row = (
                    record.id, record.repo, record.slug, record.messagePattern, record.language,
                    record.errorClass, list(record.tags), (file_number, *loc[1:]),
                    pattern_text(record.messagePattern).tokens,
                )  # fmt: skip
                if record.id in position:
                    rows[position[record.id]] = row
                else:
                    position[record.id] = len(rows)
                    rows.append(row)
        except OSError as exc:
            problems.append(Problem(path, f"cannot read: {exc.strerror or exc}"))
        done += size
        if progress:
            progress(done, total)
    token_index, unindexed = build_token_index([row[8] for row in rows])
    columns = list(zip(*rows, strict=True)) if rows else [[] for _ in range(9)]
    return {
        "format": INDEX_FORMAT,
        "version": __version__,
        "python": sys.version,
        "files": files,
        "ids": list(columns[0]),
        "repos": list(columns[1]),
        "slugs": list(columns[2]),
        "patterns": list(columns[3]),
        "languages": list(columns[4]),
        "classes": list(columns[5]),
        "tags": list(columns[6]),
        "locations": list(columns[7]),
        "token_index": token_index,
        "unindexed": unindexed,
        "problems": [(p.path, p.message, p.line, p.field) for p in problems],
    }


def fetcher(files: Fingerprint, locations: list[Location]) -> Callable[[int], Record]:
    """Read one full record from where the index says it lies."""

    def fetch(index: int) -> Record:
        file_number, offset, length, item, line = locations[index]
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


def to_catalog(data: dict[str, object], sources: list[str]) -> Catalog:
    files = data["files"]
    return Catalog(
        ids=data["ids"],  # type: ignore[arg-type]
        repos=data["repos"],  # type: ignore[arg-type]
        slugs=data["slugs"],  # type: ignore[arg-type]
        patterns=data["patterns"],  # type: ignore[arg-type]
        languages=data["languages"],  # type: ignore[arg-type]
        classes=data["classes"],  # type: ignore[arg-type]
        tags=data["tags"],  # type: ignore[arg-type]
        token_index=data["token_index"],  # type: ignore[arg-type]
        unindexed=data["unindexed"],  # type: ignore[arg-type]
        fetch=fetcher(files, data["locations"]),  # type: ignore[arg-type]
        problems=tuple(Problem(path, message, line, field) for path, message, line, field in data["problems"]),  # type: ignore[attr-defined]
        sources=tuple(sources),
    )


def index_path(sources: list[tuple[Path, bool]], environ: Environ) -> Path:
    """One index per set of sources (the default set, or with --records, --no-bundled ...)."""
    key = "\n".join(f"{p.resolve()}|{int(r)}" for p, r in sources)
    return cache_dir(environ) / "index" / f"{hashlib.sha256(key.encode()).hexdigest()[:16]}.marshal"


def read_index(path: Path, files: Fingerprint) -> dict[str, object]:
    try:
        with open(path, "rb") as handle:
            data = marshal.load(handle)
    except FileNotFoundError:
        raise IndexUnusable("no index yet") from None
    except (OSError, EOFError, ValueError, TypeError) as exc:
        raise IndexUnusable(f"unreadable index ({exc})") from None
    if not isinstance(data, dict) or data.get("format") != INDEX_FORMAT or data.get("version") != __version__:
        raise IndexUnusable("index from another version")
    if data.get("python") != sys.version:
        raise IndexUnusable("index from another Python")
    if data.get("files") != files:
        raise IndexUnusable("record files changed")
    return data


def write_index(path: Path, data: dict[str, object]) -> None:
    """Atomically: readers see the old index or the new one, never part of one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".index-", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            marshal.dump(data, handle)
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
    data: dict[str, object] | None = None
    if use_cache:
        try:
            data = read_index(path, files)
        except IndexUnusable:
            data = None
    if data is None:
        data = build(files, progress)
        if use_cache:
            try:
                write_index(path, data)
            except OSError as exc:
                warn(f"cannot write the record index in {path.parent} ({exc.strerror or exc}); working without it")
            else:
                if not extra and bundled and configured:
                    write_completion_lists(data, environ)
    catalog = to_catalog(data, used)
    catalog.problems = tuple(scan_problems) + catalog.problems
    return catalog


def write_completion_lists(data: dict[str, object], environ: Environ) -> None:
    """Plain lists for shell completion, so that a TAB needs no Python (default sources only)."""
    from leafexplain.cachedir import completion_list

    values = {
        "ids": data["ids"],
        "slugs": data["slugs"],
        "repos": data["repos"],
        "tags": [t for tags in data["tags"] for t in tags],  # type: ignore[attr-defined]
    }
    for kind, items in values.items():
        target = completion_list(kind, environ)
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{kind}-")
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write("".join(f"{v}\n" for v in sorted(set(items))))  # type: ignore[call-overload]
            os.replace(tmp, target)
        except OSError:
            return  # completion falls back to asking leafexplain
