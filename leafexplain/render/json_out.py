"""The JSON envelopes for tools: versioned, documented in the README."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import asdict, fields
from typing import TYPE_CHECKING, Any

from leafexplain import __version__
from leafexplain.models import Candidate, Frame, Match, Record

if TYPE_CHECKING:
    from leafexplain.localsource import EventSources, LibrarySource, Snippet

EXPLAIN_SCHEMA = "leafexplain.explain/1"
RECORDS_SCHEMA = "leafexplain.records/1"
RECORD_SCHEMA = "leafexplain.record/1"
VALIDATE_SCHEMA = "leafexplain.validate/1"


def _frame(frame: Frame | None) -> dict[str, Any] | None:
    return (
        None
        if frame is None
        else {"file": frame.file, "line": frame.line, "column": frame.column, "function": frame.function}
    )


def _candidate(c: Candidate) -> dict[str, Any]:
    r = c.record
    return {
        "id": r.id,
        "repo": r.repo,
        "slug": r.slug,
        "errorMessage": r.errorMessage,
        "messagePattern": r.messagePattern,
        "score": c.score,
        "method": c.method,
        "span": list(c.span) if c.span else None,
        "reasons": list(c.reasons),
        "filePath": r.filePath,
        "lineNumber": r.lineNumber,
        "githubUrl": r.githubUrl,
    }


def _user_snippet(snippet: Snippet | None) -> dict[str, Any] | None:
    if snippet is None:
        return None
    return {
        "path": snippet.path,
        "line": snippet.line,
        "start": snippet.start,
        "lines": list(snippet.lines),
        "note": snippet.note or None,
    }


def _library_source(source: LibrarySource | None) -> dict[str, Any] | None:
    if source is None:
        return None
    return {
        "path": source.path,
        "version": source.version,
        "line": source.line,
        "start": source.start,
        "lines": list(source.lines),
        "drift": source.drift,
        "note": source.note,
        "url": source.url,
    }


def explain_document(
    matches: Iterable[Match], threshold: float, sources: Sequence[EventSources] | None = None
) -> dict[str, Any]:
    """The envelope; with `sources` (the local lookups, lined up with `matches`) each event gains
    `user_snippet` and each match `library_source`, null where nothing was found here."""
    events = []
    for i, m in enumerate(matches):
        e = m.event
        events.append(
            {
                "language": e.language,
                "error_type": e.error_type,
                "message": e.message,
                "location": _frame(e.location),
                "user_frame": _frame(e.user_frame),
                "frames": [_frame(f) for f in e.frames],
                "count": e.count,
                "chained": e.chained,
                "test": e.test,
                "thread": e.thread,
                "line": e.line_number,
                "matches": [_candidate(c) for c in m.matches],
                "near": [_candidate(c) for c in m.near],
            }
        )
        if sources is not None:
            found = sources[i]
            events[-1]["user_snippet"] = _user_snippet(found.user)
            for j, candidate in enumerate(events[-1]["matches"]):
                candidate["library_source"] = _library_source(found.library[j] if j < len(found.library) else None)
    return {"schema": EXPLAIN_SCHEMA, "version": __version__, "threshold": threshold, "events": events}


RECORD_FIELDS = [f.name for f in fields(Record) if f.name not in ("datasetVersion", "origin")]


def record_dict(record: Record) -> dict[str, Any]:
    data = asdict(record)
    out = {name: list(data[name]) if isinstance(data[name], tuple) else data[name] for name in RECORD_FIELDS}
    return out


def record_summary(record: Record, score: float | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": record.id,
        "repo": record.repo,
        "slug": record.slug,
        "errorType": record.errorType,
        "errorClass": record.errorClass,
        "errorMessage": record.errorMessage,
        "tags": list(record.tags),
    }
    if score is not None:
        out["score"] = score
    return out


def dumps(document: dict[str, Any]) -> str:
    return json.dumps(document, ensure_ascii=True, indent=2) + "\n"
