"""The json format, and every JSON envelope leafexplain writes: each names its schema and version (README: JSON)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from leafexplain.env import Environment
from leafexplain.jsoncodec import dumps_indented
from leafexplain.libraries import rust_error_page
from leafexplain.models import (
    CachedSnippet,
    Candidate,
    Finding,
    Frame,
    LibrarySource,
    Located,
    Raised,
    Record,
    RecordSet,
    Redacted,
    Snippet,
    Verdict,
)
from leafexplain.render.shown import Shown
from leafexplain.render.streams import emit
from leafexplain.render.style import Row, Style
from leafexplain.version import __version__

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: the everyday path does without it
if TYPE_CHECKING:
    from typing import Any

EXPLAIN_SCHEMA = "leafexplain.explain/1"
RECORDS_SCHEMA = "leafexplain.records/1"
RECORD_SCHEMA = "leafexplain.record/1"
VALIDATE_SCHEMA = "leafexplain.validate/1"
VERIFY_SCHEMA = "leafexplain.verify/1"


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
        "confidence": c.confidence,
        "wording": c.wording,
        "role": c.role,
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


# `raised`'s keys, each present when known (docs/output.md).
RAISED_KEYS = (
    "library",
    "version",
    "path",
    "line",
    "start",
    "lines",
    "function",
    "docstring",
    "condition",
    "url",
    "url_note",
    "issues_url",
    "docs_url",
    "new_command",
)


def raised_dict(raised: Raised | None) -> dict[str, Any] | None:
    """Where a library raised the event (issue 25), with only what is known; `changed` only when true (then no
    lines), `start` only with lines."""
    if not raised:  # None, or a matched finding's lookup that found nothing
        return None
    out: dict[str, Any] = {}
    for key in RAISED_KEYS:
        value = getattr(raised, key)
        if key == "lines":
            value = list(value) or None
        if key == "start" and not raised.lines:
            value = None
        if value is not None:
            out[key] = value
    if raised.changed:
        out["changed"] = True
    return out


def _source_snippet(
    record: Record, installed: LibrarySource | None, cached: CachedSnippet | None
) -> dict[str, Any] | None:
    """The snippet a match shows, by the first origin that has one: the record's own, installed, the cache
    (the cache first when the record's own commit was not found and the lines come from a release)."""
    if cached is not None and cached.replaces(record) and installed is None:
        return _cached_snippet(cached)
    if record.sourceCode and record.sourceCode.strip():
        lines = record.sourceCode.split("\n")
        return {
            "origin": "record",
            "path": record.filePath,
            "commit": record.analyzedSha,
            "line": record.lineNumber,
            "start": record.sourceCodeStart or 1,
            "lines": lines,
            "url": record.githubUrl,
        }
    if installed is not None:
        return {"origin": "installed", "commit": None, **(_library_source(installed) or {})}
    if cached is not None:
        return _cached_snippet(cached)
    return None


def _cached_snippet(cached: CachedSnippet) -> dict[str, Any]:
    return {
        "origin": "cache",
        "path": cached.path,
        "commit": cached.commit,
        "line": cached.line,
        "start": cached.start,
        "lines": list(cached.lines),
        "url": cached.url,
    }


def event_object(finding: Finding, found: Located | None = None, *, local: bool = False) -> dict[str, Any]:
    """One event of the envelope (and one line of the jsonl format). With `local` (the report was located:
    `found` is what was found for it, None where nothing was) it gains `user_snippet` and `explain_text` (what
    `rustc --explain` says of a compile error's code no record explains, null otherwise) and `raised` (where a
    library raised it, null when no library is known), and each match `library_source` (null where nothing was
    found here) and `source_snippet` (null where no origin has one)."""
    e = finding.event
    event: dict[str, Any] = {
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
        "code": e.code,  # a compile error's code (rustc's `E0382`)
        "detail": list(e.detail),  # the compiler's labels, `note:` and `help:` lines
        "error_index_url": rust_error_page(e.code),
        "matches": [_candidate(c) for c in finding.matches],
        "near": [_candidate(c) for c in finding.near],
    }
    if e.report:  # human-panic's report file; absent for every other event
        event["report"] = e.report
    if finding.unlisted:  # only then: records past the bound of a wording many share (records/postings.py)
        event["unlisted"] = finding.unlisted
    if local:
        event["user_snippet"] = _user_snippet(found.user) if found is not None else None
        event["explain_text"] = found.explanation.text if found is not None and found.explanation is not None else None
        event["raised"] = raised_dict(found.raised) if found is not None else None
        for j, candidate in enumerate(event["matches"]):
            installed = found.library[j] if found is not None and j < len(found.library) else None
            candidate["library_source"] = _library_source(installed)
            cached = found.cached[j] if found is not None and j < len(found.cached) else None
            candidate["source_snippet"] = _source_snippet(finding.matches[j].record, installed, cached)
    return event


def event_objects(findings: Sequence[Finding], sources: Sequence[Located] | None) -> list[dict[str, Any]]:
    """Each finding's event object, with what was found here for it when the report was located (`sources`)."""
    if sources is None:
        return [event_object(finding) for finding in findings]
    return [event_object(finding, found, local=True) for finding, found in zip(findings, sources, strict=True)]


def explain_document(
    findings: Iterable[Finding],
    threshold: float,
    sources: Sequence[Located] | None = None,
    redacted: Redacted = (),
) -> dict[str, Any]:
    """The envelope: each finding's `event_object` (with `sources`, the local lookups lined up with `findings`,
    what was found here, `raised` among it); `redacted` counts the secrets replaced, by kind (null: redaction
    was off)."""
    # The events first: reading them reads the lines a view shows (the source cache's, a library's), whose secrets
    # join the counts as they are redacted.
    events = event_objects(tuple(findings), sources)
    return {
        "schema": EXPLAIN_SCHEMA,
        "version": __version__,
        "threshold": threshold,
        "redacted": None if redacted is None else dict(redacted),
        "events": events,
    }


RECORD_FIELDS = [name for name in Record._fields if name not in ("datasetVersion", "origin")]


def record_dict(record: Record) -> dict[str, Any]:
    data = record._asdict()
    out = {name: list(data[name]) if isinstance(data[name], tuple) else data[name] for name in RECORD_FIELDS}
    # Our extension appears only when the record has it, each entry with the keys it was given.
    variants = out.pop("messageVariants")
    if variants:
        out["messageVariants"] = [
            {key: value for key, value in entry._asdict().items() if value is not None and value is not False}
            for entry in variants
        ]
    return out


def record_entry(record: Record, score: float | None = None) -> dict[str, Any]:
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


def validate_document(loaded: RecordSet) -> dict[str, Any]:
    problems = [{"path": p.path, "line": p.line, "field": p.field, "message": p.message} for p in loaded.problems]
    return {
        "schema": VALIDATE_SCHEMA,
        "records": len(loaded.records),
        "sources": list(loaded.sources),
        "problems": problems,
    }


def verify_document(repo: str | None, source: str, verdicts: Sequence[Verdict]) -> dict[str, Any]:
    results = [
        {
            "id": v.record.id,
            "slug": v.record.slug,
            "status": v.status,
            "filePath": v.record.filePath,
            "lineNumber": v.record.lineNumber,
            "found_line": v.found_line,
            "detail": v.detail,
        }
        for v in verdicts
    ]
    return {"schema": VERIFY_SCHEMA, "repo": repo, "source": source, "results": results}


def dumps(document: dict[str, Any]) -> str:
    return dumps_indented(document) + "\n"


def write_json(document: dict[str, Any], env: Environment) -> None:
    emit(env, dumps(document))


def write_report(shown: Shown, env: Environment, style: Style) -> None:
    report = shown.report
    write_json(explain_document(report.findings, report.threshold, report.located, report.redacted), env)


def write_record(record: Record, env: Environment, style: Style) -> None:
    write_json({"schema": RECORD_SCHEMA, "record": record_dict(record)}, env)


def write_records(rows: list[Row], env: Environment, style: Style) -> None:
    write_json({"schema": RECORDS_SCHEMA, "records": [record_entry(r, s) for r, s in rows]}, env)
