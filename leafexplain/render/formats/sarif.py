"""The sarif format: SARIF 2.1.0 for code scanning and editors, the records as rules and each error as a result.

One run. Each record that explains an error is a rule (`id`, `name`, descriptions, `help` in text
and Markdown, `helpUri`: where the library raises it); an error no record explains is a result
of the one rule `leafexplain/unknown-error`. A result lies at the user's frame, relative to the
workspace (`uriBaseId` SRCROOT), with the frames as its stack. `show`, `list` and `search` write
the records as rules of a run without results.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import quote

from leafexplain.env import Environment
from leafexplain.models import ErrorEvent, Finding, Frame, Located, Record, Report
from leafexplain.render.fitting import safe
from leafexplain.render.formats.github import error_line
from leafexplain.render.formats.markdown import md_text
from leafexplain.render.naming import show_command
from leafexplain.render.streams import emit
from leafexplain.render.style import Row, Style
from leafexplain.render.summary import SOLUTIONS_SHOWN
from leafexplain.render.workspace import error_place, relative_path, windows_path, workspace
from leafexplain.text import safe_link
from leafexplain.version import __version__

SARIF_VERSION = "2.1.0"
SARIF_SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
UNKNOWN_RULE = "leafexplain/unknown-error"
BASE_ID = "SRCROOT"
STDIN_URI = "stdin"  # an error with no frame, read from standard input: the log has no file name
MAX_STACK_FRAMES = 100


def _text(value: str | None, limit: int = 4000) -> str:
    return safe(value, limit)


def rule(record: Record) -> dict[str, Any]:
    """A record as a rule: what the error means, how to fix it, where it is raised."""
    meaning = _text(record.documentation) or _text(record.errorMessage, 1000)
    fixes = [_text(s, 1000) for s in record.solutions if s.strip()][:SOLUTIONS_SHOWN]
    link = safe_link(record.working_url)
    text = [meaning]
    markdown = [md_text(meaning)]
    if fixes:
        text.append("How to fix it:\n" + "\n".join(f"{n}. {fix}" for n, fix in enumerate(fixes, 1)))
        markdown += ["**How to fix it**", "\n".join(f"{n}. {md_text(fix)}" for n, fix in enumerate(fixes, 1))]
    if link:
        text.append(f"Where it is raised: {link}")
        markdown.append(f"[Where it is raised]({link})")
    text.append(f"More: {show_command(record.id)}")
    markdown.append(f"More: `{show_command(record.id)}`")
    found: dict[str, Any] = {
        "id": record.id,
        "name": record.slug,
        "shortDescription": {"text": _text(record.errorMessage.strip().split("\n", 1)[0], 1000)},
        "fullDescription": {"text": meaning},
        "help": {"text": "\n\n".join(text), "markdown": "\n\n".join(markdown)},
        "defaultConfiguration": {"level": "error"},
        "properties": {
            "repo": record.repo,
            "tags": list(record.tags),
            **{k: v for k, v in (("errorType", record.errorType), ("errorClass", record.errorClass)) if v},
        },
    }
    if link:
        found["helpUri"] = link
    return found


def unknown_rule() -> dict[str, Any]:
    return {
        "id": UNKNOWN_RULE,
        "name": "unknown-error",
        "shortDescription": {"text": "An error no leafexplain record explains"},
        "fullDescription": {
            "text": "leafexplain found this panic or exception, but none of its records matches its message."
        },
        "help": {"text": "Try `leafexplain search` with the error's message, or add a record (CONTRIBUTING.md)."},
        "defaultConfiguration": {"level": "warning"},
    }


def artifact(file: str, root: str) -> dict[str, Any]:
    """A file as SARIF names it: relative to the workspace where it lies inside, else a file URI."""
    inside = relative_path(file, root)
    if inside is not None:
        return {"uri": quote(inside, safe="/"), "uriBaseId": BASE_ID}
    if windows_path(file):  # a Windows machine's file, read elsewhere: a file URI all the same
        forward = file.replace("\\", "/")
        if forward.startswith("//"):  # a share: \\\\server\\share\\x.py is file://server/share/x.py
            return {"uri": "file:" + quote(forward, safe="/")}
        return {"uri": "file:///" + quote(forward, safe="/:")}
    path = Path(file)
    if path.is_absolute():
        return {"uri": path.as_uri()}
    return {"uri": quote(file.replace("\\", "/"), safe="/")}


def physical(where: dict[str, Any], line: int | None, column: int | None) -> dict[str, Any]:
    location: dict[str, Any] = {"artifactLocation": where}
    if line is not None and line >= 1:
        location["region"] = {"startLine": line, **({"startColumn": column} if column and column >= 1 else {})}
    return location


def _stack_frame(frame: Frame, root: str) -> dict[str, Any]:
    where = artifact(safe(frame.file, 1000), root)
    location: dict[str, Any] = {"physicalLocation": physical(where, frame.line, frame.column)}
    if frame.function:
        location["message"] = {"text": safe(frame.function, 300)}
    return {"location": location}


def _fallback_location(event: ErrorEvent, root: str, input_name: str | None) -> dict[str, Any]:
    """Where an error with no frame of the user's lies: the place it was raised (a library's file), else the
    line of the log it was read from. Code scanning refuses a whole file for one result without a location."""
    raised = event.location or next((f for f in event.frames if f.file), None)
    if raised is not None and raised.file:
        return physical(artifact(safe(raised.file, 1000), root), raised.line, raised.column)
    log = artifact(safe(input_name, 1000), root) if input_name else {"uri": STDIN_URI}
    return physical(log, event.line_number or None, None)


def result(
    finding: Finding, found: Located | None, rule_index: int, root: str, input_name: str | None = None
) -> dict[str, Any]:
    event, best = finding.event, finding.best
    text = error_line(finding)
    if best is not None:
        fixes = [s for s in best.record.solutions if s.strip()]
        if fixes:
            text += f"\n\nFix: {_text(fixes[0], 1000)}"
    out: dict[str, Any] = {
        "ruleId": best.record.id if best is not None else UNKNOWN_RULE,
        "ruleIndex": rule_index,
        "level": "error" if best is not None else "warning",
        "message": {"text": text},
    }
    place = error_place(event, found, root)
    if place is not None:
        if place.path is not None:
            where = {"uri": quote(place.path, safe="/"), "uriBaseId": BASE_ID}
        else:
            where = artifact(safe(place.frame.file, 1000), root)
        out["locations"] = [{"physicalLocation": physical(where, place.line, place.column)}]
    else:
        out["locations"] = [{"physicalLocation": _fallback_location(event, root, input_name)}]
    frames = [f for f in event.frames if f.file][:MAX_STACK_FRAMES]
    if frames:
        out["stacks"] = [{"frames": [_stack_frame(f, root) for f in frames]}]
    properties: dict[str, Any] = {"language": event.language, "count": event.count}
    if event.test:
        properties["test"] = safe(event.test, 300)
    if best is not None:
        properties.update(score=best.score, method=best.method)
    out["properties"] = properties
    return out


def sarif_log(rules: Sequence[dict[str, Any]], results: Sequence[dict[str, Any]], root: str, **properties: Any) -> str:
    run: dict[str, Any] = {
        "tool": {
            "driver": {"name": "leafexplain", "version": __version__, "semanticVersion": __version__, "rules": rules}
        },
        "originalUriBaseIds": {BASE_ID: {"uri": Path(root).as_uri().rstrip("/") + "/"}},
        "columnKind": "unicodeCodePoints",
        "results": list(results),
    }
    if properties:
        run["properties"] = properties
    log = {"$schema": SARIF_SCHEMA, "version": SARIF_VERSION, "runs": [run]}
    return json.dumps(log, ensure_ascii=True, indent=2) + "\n"


def report_log(report: Report, root: str, input_name: str | None = None) -> str:
    """The report as one SARIF log: a rule per matched record (and one for errors without a record)."""
    rules: list[dict[str, Any]] = []
    index: dict[str, int] = {}
    results = []
    located: Iterable[Located | None] = report.located or (None,) * len(report.findings)
    for finding, found in zip(report.findings, located, strict=True):
        record = finding.best.record if finding.best is not None else None
        key = record.id if record is not None else UNKNOWN_RULE
        if key not in index:
            index[key] = len(rules)
            rules.append(rule(record) if record is not None else unknown_rule())
        results.append(result(finding, found, index[key], root, input_name))
    redacted = None if report.redacted is None else dict(report.redacted)
    return sarif_log(rules, results, root, threshold=report.threshold, dropped=report.dropped, redacted=redacted)


def write_report(report: Report, env: Environment, style: Style) -> None:
    emit(env, report_log(report, workspace(env.environ), style.input_name))


def write_record(record: Record, env: Environment, style: Style) -> None:
    emit(env, sarif_log([rule(record)], [], workspace(env.environ)))


def write_records(rows: list[Row], env: Environment, style: Style) -> None:
    emit(env, sarif_log([rule(record) for record, _ in rows], [], workspace(env.environ)))
