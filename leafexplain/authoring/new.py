"""`leafexplain new`: a record scaffolded from the facts of where its message is raised, checked, and written."""

from __future__ import annotations

import hashlib
import json
import os
import re
from pathlib import Path
from typing import Any

from leafexplain.records.patterns import placeholder_only
from leafexplain.records.schema import FIELDS, SCHEMA_VERSION, slugify, validate_record
from leafexplain.safeio import inside, write_whole

ANCHOR_BEFORE = 15  # the link's line range: from 15 lines before the message to 20 after
ANCHOR_AFTER = 20
SHA = re.compile(r"[0-9a-f]{40}\Z")  # `\Z`: `$` would let a trailing newline through


class RecordRefused(ValueError):
    """The record cannot be made as asked: one line for the user."""


def record_id(repo: str, file_path: str, pattern: str, error_class: str | None = None) -> str:
    """Stable: the same site and pattern always give the same id. A record for an exception class as such (its
    pattern a placeholder alone) is its class's: one file defines many (CPython's Objects/exceptions.c)."""
    site = f"{repo}\n{file_path}\n{pattern}"
    if error_class and placeholder_only(pattern):
        site += f"\n{error_class}"
    return hashlib.sha256(site.encode()).hexdigest()[:16]


def unique_slug(slug: str, taken: set[str]) -> str:
    candidate, n = slug, 2
    while candidate in taken:
        candidate = f"{slug}-{n}"
        n += 1
    return candidate


def scaffold(
    *,
    repo: str,
    commit: str,
    path: str,
    line: int,
    message: str,
    pattern: str | None = None,
    error_class: str | None = None,
    taken_slugs: set[str] = frozenset(),  # type: ignore[assignment]
    now: str,
) -> dict[str, Any]:
    """A wrapped record with every fact filled in and the prose fields left for the author."""
    if not SHA.match(commit):
        raise ValueError("the commit must be a full 40-character SHA")
    pattern = pattern or message
    class_only = bool(error_class) and placeholder_only(pattern)  # a record for the class as such: `class-keyerror`
    start, end = max(line - ANCHOR_BEFORE, 1), line + ANCHOR_AFTER
    record: dict[str, Any] = dict.fromkeys(FIELDS)
    record.update(
        id=record_id(repo, path, pattern, error_class if class_only else None),
        repo=repo,
        slug=unique_slug(slugify(f"class {error_class}" if class_only else message), taken_slugs),
        errorMessage=message,
        messagePattern=pattern,
        errorType="exception" if error_class else "panic",
        errorClass=error_class,
        severity="error",
        filePath=path,
        lineNumber=line,
        sourceCode="",
        sourceCodeStart=start,
        sourceCodeEnd=end,
        githubUrl=f"https://github.com/{repo}/blob/{commit}/{path}#L{start}-L{end}",
        documentation="",
        triggerScenarios="",
        commonSituations="",
        solutions=[],
        exampleFix="",
        handlingStrategy="",
        validationCode="",
        typeGuard="",
        tryCatchPattern="",
        preventionTips=[],
        tags=["python" if error_class else "rust"],
        backgroundTag="",
        analyzedSha=commit,
        analyzedAt=now,
        contentChangedAt=now,
        schemaVersion=SCHEMA_VERSION,
    )
    return {"record": record, "datasetVersion": now}


def dumps(wrapped: dict[str, Any]) -> str:
    return json.dumps(wrapped, indent=2, ensure_ascii=False) + "\n"


def record_file(out_dir: Path, wrapped: dict[str, Any]) -> Path:
    record = wrapped["record"]
    return out_dir / record["repo"] / f"{record['slug']}.json"


def new_record(*, out: Path | None = None, now: str | None = None, **facts: Any) -> dict[str, Any]:
    """A valid wrapped record, `scaffold`ed from `facts` (repo, commit, path, line, message, and pattern and
    error_class when given), its slug unique among the records in `out`; RecordRefused says why not."""
    taken: set[str] = set()
    existing: dict[str, str] = {}
    if out and out.is_dir():
        from leafexplain.records import load_paths

        known = load_paths([str(out)]).records
        taken = {r.slug for r in known}
        existing = {r.id: r.origin for r in known}
    if now is None:
        from datetime import datetime, timezone

        now = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.000Z")
    try:
        wrapped = scaffold(**facts, taken_slugs=taken, now=now)
    except ValueError as exc:
        raise RecordRefused(str(exc)) from None
    _, problems = validate_record(wrapped["record"], "<new record>")
    if problems:
        raise RecordRefused("; ".join(str(p) for p in problems))
    record_id = wrapped["record"]["id"]
    if out is not None and record_id in existing:
        raise RecordRefused(f"a record with id {record_id} exists already: {existing[record_id]}")
    return wrapped


def save(out_dir: Path, wrapped: dict[str, Any], *, force: bool = False) -> Path:
    """Write the record as `OUT/OWNER/NAME/SLUG.json`, whole; the file written. A file already there (a record
    being edited, a symlink) is only replaced with `force`, and never written through; RecordRefused says why
    not, OSError when the folder cannot be made."""
    target = record_file(out_dir, wrapped)
    folder = target.parent
    for _ in range(2):  # before creating the folders, and after: none of them may be a symlink leading out
        if not inside(folder, out_dir) and os.path.lexists(folder):
            raise RecordRefused(f"{folder} leads outside {out_dir}: not written")
        folder.mkdir(parents=True, exist_ok=True)
    try:
        write_whole(target, dumps(wrapped).encode("utf-8"), replace=force)
    except FileExistsError:
        raise RecordRefused(f"{target} exists already (--force replaces it)") from None
    return target
