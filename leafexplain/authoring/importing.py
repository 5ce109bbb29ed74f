"""`leafexplain import`: validate records from elsewhere and copy each into the user's records folder.

A record is untrusted data: its repo, slug and id only ever become file names after every
character but letters, digits, `.`, `_` and `-` is replaced, and the path is checked to lie inside
the folder (symlinks resolved) before anything is written. A file is written whole or not at all
(a temporary file, then a link or rename), and an existing file is only replaced with `--force`
when it holds the one record with that id. Imports into one folder take turns (a lock), so that
several at once never write the same id twice.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from leafexplain.env import Environment
from leafexplain.exitcodes import ExitStatus
from leafexplain.models import Problem, Record
from leafexplain.records.files import iter_record_files, raw_records, user_records_dir
from leafexplain.records.schema import validate_record
from leafexplain.render import warn, warn_problems
from leafexplain.render.checks import write_import_counts, write_import_line
from leafexplain.safeio import write_whole

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
MAX_NAME_CHARS = 80
LOCK_NAME = ".import.lock"  # a hidden name without a record suffix: never read as records


@dataclass(frozen=True)
class Found:
    """A valid record, the JSON it was read from, and where."""

    record: Record
    data: Any  # the record object as written (bare or wrapped), unknown fields kept
    path: str
    alone: bool  # the only record in its file: the file can be replaced by another


def safe_name(text: str, fallback: str) -> str:
    """A file or folder name made from record data: no separators, no `..`, no hidden files, no NUL."""
    name = _UNSAFE.sub("-", text).strip(".-")[:MAX_NAME_CHARS].strip(".-")
    return name or fallback


def read_records(paths: Iterable[Path]) -> tuple[list[Found], list[Problem]]:
    """Every valid record under these files and folders, in order, and the problems met."""
    found: list[Found] = []
    problems: list[Problem] = []
    for root in paths:
        for path in iter_record_files(root, problems):
            found_here, problems_here = _records_in(str(path))
            found += found_here
            problems += problems_here
    return found, problems


def _records_in(path: str) -> tuple[list[Found], list[Problem]]:
    try:
        size = os.stat(path).st_size
        items = list(raw_records(path, size))
    except OSError as exc:
        return [], [Problem(path, f"cannot read: {exc.strerror or exc}")]
    found: list[Found] = []
    problems: list[Problem] = []
    for data, version, location, file_problems in items:
        problems += file_problems
        if data is None and file_problems:
            continue
        record, invalid = validate_record(data, path, location[4] or None, version)
        problems += invalid
        if record is not None:
            written = {"record": data, "datasetVersion": version} if version is not None else data
            found.append(Found(record, written, path, alone=location[3] < 0 and location[4] == 0))
    return found, problems


def _same(a: Record, b: Record) -> bool:
    return a._replace(origin="", datasetVersion=None) == b._replace(origin="", datasetVersion=None)


def _inside(path: Path, root: Path) -> bool:
    """`path` (resolved, symlinks followed) lies in `root` (resolved)."""
    try:
        return path.resolve().is_relative_to(root)
    except (OSError, RuntimeError, ValueError):
        return False


def target_for(record: Record, root: Path, taken: set[Path]) -> Path:
    """`<owner>/<repo>/<slug>.json` under root, made unique against files there and names taken."""
    owner, _, name = record.repo.partition("/")
    folder = root / safe_name(owner, "unknown") / safe_name(name, "unknown")
    stem = safe_name(record.slug, "record")
    for candidate in _candidates(stem, safe_name(record.id, "id")):
        target = folder / f"{candidate}.json"
        if target not in taken and not os.path.lexists(target):
            return target
    raise AssertionError("unreachable: the candidates never run out")


def _candidates(stem: str, record_id: str) -> Iterator[str]:
    yield stem
    yield f"{stem}-{record_id}"
    n = 2
    while True:
        yield f"{stem}-{record_id}-{n}"
        n += 1


def write_record(target: Path, data: Any, root: Path, *, replace_existing: bool) -> None:
    """Write one record file atomically, inside root; never over an existing file unless told to."""
    folder = target.parent
    if not _inside(folder, root):  # checked before creating anything, and again after (a symlink)
        raise OSError(f"{folder} is not inside {root}")
    folder.mkdir(parents=True, exist_ok=True)
    if not _inside(folder, root):
        raise OSError(f"{folder} leads outside {root}")
    text = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    # A link fails if a file of that name appeared meanwhile; a rename replaces a symlink itself, never its target.
    write_whole(target, text.encode("utf-8"), replace=replace_existing)


@contextlib.contextmanager
def _one_import_at_a_time(root: Path) -> Iterator[None]:
    """Imports into one records folder take turns: each reads the ids there and writes its files under a lock,
    so that two at once never both write a record the other has just added (POSIX; elsewhere, no lock)."""
    try:
        import fcntl
    except ImportError:
        yield
        return
    fd = os.open(root / LOCK_NAME, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the lock


def import_paths(paths: list[str], *, force: bool, env: Environment) -> int:
    """Import the records in `paths` into the user's records folder; report each; the exit code."""
    missing = [p for p in paths if not os.path.exists(p)]
    if missing:
        for path in missing:
            warn(env, f"cannot import {path}: no such file or folder")
        return ExitStatus.USAGE_ERROR
    incoming, problems = read_records(Path(p) for p in paths)
    warn_problems(env, problems)
    root = Path(user_records_dir(env.environ))
    try:
        root.mkdir(parents=True, exist_ok=True)
        root = root.resolve()
    except OSError as exc:
        warn(env, f"cannot create {root}: {exc.strerror or exc}")
        return ExitStatus.USAGE_ERROR
    try:
        with _one_import_at_a_time(root):
            counts = _place_all(incoming, root, force, env)
    except OSError as exc:
        warn(env, f"cannot lock {root / LOCK_NAME}: {exc.strerror or exc}")
        return ExitStatus.USAGE_ERROR
    write_import_counts(env, counts, root)
    return ExitStatus.NOTHING_MATCHED if problems or counts["skipped"] else ExitStatus.EXPLAINED


def _place_all(incoming: list[Found], root: Path, force: bool, env: Environment) -> dict[str, int]:
    """Each incoming record written where it belongs, against the records in the folder now: what happened, counted."""
    existing, _ = read_records([root])
    by_id = {f.record.id: f for f in existing}
    later = {f.record.id: n for n, f in enumerate(incoming)}
    counts = {"imported": 0, "replaced": 0, "unchanged": 0, "skipped": 0}
    taken: set[Path] = set()
    for n, new in enumerate(incoming):
        record = new.record
        if later[record.id] != n:
            warn(env, f"{new.path}: id {record.id} comes again later in the files imported; the later one is used")
            continue
        old = by_id.get(record.id)
        outcome, target = _place(new, old, root, force, taken, env)
        counts[outcome] += 1
        if target is not None:
            taken.add(target)
            write_import_line(env, outcome, record.id, target)
    return counts


def _place(
    new: Found, old: Found | None, root: Path, force: bool, taken: set[Path], env: Environment
) -> tuple[str, Path | None]:
    """Write one incoming record where it belongs: what happened, and the file (None when skipped)."""
    record = new.record
    replacing = old is not None
    if old is not None:
        if _same(old.record, record):
            return "unchanged", Path(old.path)
        if not force:
            warn(env, f"skipped {record.id}: a different record with this id is in {old.path} (--force replaces it)")
            return "skipped", None
        if not old.alone:
            warn(env, f"skipped {record.id}: {old.path} holds other records too; edit that file instead")
            return "skipped", None
        target = Path(old.path)
    else:
        target = target_for(record, root, taken)
    try:
        write_record(target, new.data, root, replace_existing=replacing)
    except OSError as exc:
        warn(env, f"skipped {record.id}: cannot write {target}: {exc.strerror or exc}")
        return "skipped", None
    return ("replaced" if replacing else "imported"), target
