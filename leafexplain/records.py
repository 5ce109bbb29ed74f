"""Find and load record files (bundled, user data folder, LEAFEXPLAIN_RECORDS, --records)."""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from leafexplain.bundled import bundled_dir
from leafexplain.models import Problem, Record, RecordSet
from leafexplain.schema import validate_record

RECORD_SUFFIXES = (".json", ".txt", ".jsonl")
# A single-record file is parsed whole; anything this large is not one record.
MAX_SINGLE_FILE_BYTES = 64 * 1024 * 1024
MAX_LINE_BYTES = 16 * 1024 * 1024


def bundled_records_dir() -> Path:
    return bundled_dir("records")


def user_records_dir(environ: dict[str, str] | os._Environ[str] = os.environ) -> Path:
    base = environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "leafexplain" / "records"


def record_sources(
    extra: Iterable[str] = (),
    *,
    bundled: bool = True,
    configured: bool = True,
    environ: dict[str, str] | os._Environ[str] = os.environ,
) -> list[tuple[Path, bool]]:
    """Paths in load order, each with whether it must exist (the user named it).

    `configured` takes in the user's data folder and LEAFEXPLAIN_RECORDS.
    """
    sources: list[tuple[Path, bool]] = []
    if bundled:
        sources.append((bundled_records_dir(), False))
    if configured:
        sources.append((user_records_dir(environ), False))
        for entry in environ.get("LEAFEXPLAIN_RECORDS", "").split(os.pathsep):
            if entry.strip():
                sources.append((Path(entry).expanduser(), True))
    sources.extend((Path(p).expanduser(), True) for p in extra)
    return sources


def iter_record_files(root: Path) -> Iterator[Path]:
    """Record files below a folder, in a stable order; a file is taken as it is."""
    if root.is_file():
        yield root
        return
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        for name in sorted(filenames):
            if name.endswith(RECORD_SUFFIXES) and not name.startswith("."):
                yield Path(dirpath) / name


def _unwrap(data: Any) -> tuple[Any, str | None]:
    """A dataset wrapper {"record": {...}, "datasetVersion": ...} or a bare record."""
    if isinstance(data, dict) and isinstance(data.get("record"), dict):
        version = data.get("datasetVersion")
        return data["record"], version if isinstance(version, str) else None
    return data, None


def _describe_json_error(exc: Exception) -> str:
    if isinstance(exc, json.JSONDecodeError):
        return f"not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})"
    if isinstance(exc, RecursionError):
        return "not valid JSON: nested too deeply"
    if isinstance(exc, UnicodeDecodeError):
        return f"not UTF-8 text: byte {exc.start}"
    return f"not valid JSON: {exc}"


def load_file(path: Path) -> Iterator[tuple[Record | None, list[Problem]]]:
    """Each record in one file, validated, with the problems found (file-level ones too)."""
    name = str(path)
    try:
        if path.suffix == ".jsonl":
            with path.open("rb") as handle:
                for number, raw in enumerate(handle, start=1):
                    if not raw.strip():
                        continue
                    if len(raw) > MAX_LINE_BYTES:
                        yield None, [Problem(name, f"line longer than {MAX_LINE_BYTES} bytes", line=number)]
                        continue
                    try:
                        data, version = _unwrap(json.loads(raw))
                    except (ValueError, RecursionError) as exc:
                        yield None, [Problem(name, _describe_json_error(exc), line=number)]
                        continue
                    yield validate_record(data, name, number, version)
            return
        size = path.stat().st_size
        if size > MAX_SINGLE_FILE_BYTES:
            yield None, [Problem(name, f"{size} bytes is too large for a record file; use .jsonl")]
            return
        try:
            parsed = json.loads(path.read_bytes())
        except (ValueError, RecursionError) as exc:
            yield None, [Problem(name, _describe_json_error(exc))]
            return
        items = parsed if isinstance(parsed, list) else [parsed]
        for index, item in enumerate(items, start=1):
            data, version = _unwrap(item)
            yield validate_record(data, name, index if isinstance(parsed, list) else None, version)
    except OSError as exc:
        yield None, [Problem(name, f"cannot read: {exc.strerror or exc}")]


def load_records(
    extra: Iterable[str] = (),
    *,
    bundled: bool = True,
    configured: bool = True,
    environ: dict[str, str] | os._Environ[str] = os.environ,
) -> RecordSet:
    """All records from all sources; a later id replaces an earlier one."""
    by_id: dict[str, Record] = {}
    problems: list[Problem] = []
    used: list[str] = []
    for root, required in record_sources(extra, bundled=bundled, configured=configured, environ=environ):
        if not root.exists():
            if required:
                problems.append(Problem(str(root), "no such file or folder"))
            continue
        used.append(str(root))
        seen_here: dict[str, str] = {}
        for path in iter_record_files(root):
            for record, found in load_file(path):
                problems.extend(found)
                if record is None:
                    continue
                if record.id in seen_here:
                    problems.append(
                        Problem(
                            record.origin,
                            f"duplicate id {record.id} (also in {seen_here[record.id]}); the later one is used",
                            field="id",
                        )
                    )
                seen_here[record.id] = record.origin
                by_id[record.id] = record
    return RecordSet(records=tuple(by_id.values()), problems=tuple(problems), sources=tuple(used))


def load_paths(paths: Iterable[str]) -> RecordSet:
    """Only the given files or folders (for `validate PATH`)."""
    return load_records(paths, bundled=False, configured=False)
