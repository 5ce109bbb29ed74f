"""Scaffold a new record from the facts of where its message is raised (for `leafexplain new`)."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

from leafexplain.schema import FIELDS, SCHEMA_VERSION, slugify

ANCHOR_BEFORE = 15  # the link's line range: from 15 lines before the message to 20 after
ANCHOR_AFTER = 20
SHA = re.compile(r"^[0-9a-f]{40}$")


def record_id(repo: str, file_path: str, pattern: str) -> str:
    """Stable: the same site and pattern always give the same id."""
    return hashlib.sha256(f"{repo}\n{file_path}\n{pattern}".encode()).hexdigest()[:16]


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
    start, end = max(line - ANCHOR_BEFORE, 1), line + ANCHOR_AFTER
    record: dict[str, Any] = dict.fromkeys(FIELDS)
    record.update(
        id=record_id(repo, path, pattern),
        repo=repo,
        slug=unique_slug(slugify(message), taken_slugs),
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
