"""The sarif format: SARIF 2.1.0 for code scanning and editors, the records as rules and each error as a result.

One run. Each record that explains an error is a rule (`id`, `name`, descriptions, `help` in text
and Markdown, `helpUri`: where the library raises it); an error no record explains is a result
of the one rule `leafexplain/unknown-error`. A result lies at the user's frame, relative to the
workspace (`uriBaseId` SRCROOT), with the frames as its stack. A file outside the workspace is an
absolute `file:` URI (a relative path as the command that printed it meant it: from the current
folder), never a relative URI without a base, which code scanning cannot place. Every path of this
machine comes from the report's Shown, redacted. `show`, `list` and `search` write the records as
rules of a run without results.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from urllib.parse import quote

from leafexplain.env import Environment
from leafexplain.models import ErrorEvent, Finding, Frame, Record
from leafexplain.render.document import format_frame
from leafexplain.render.fitting import safe
from leafexplain.render.formats.github import error_line, raised_words
from leafexplain.render.formats.json_out import raised_dict
from leafexplain.render.formats.markdown import md_code, md_link, md_text
from leafexplain.render.naming import show_command
from leafexplain.render.shown import Shown, shown_workspace
from leafexplain.render.streams import emit
from leafexplain.render.style import Row, Style
from leafexplain.render.summary import SOLUTIONS_SHOWN
from leafexplain.render.workspace import windows_path
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
        markdown.append(md_link("Where it is raised", link))
    text.append(f"More: {show_command(record.id)}")
    markdown.append(f"More: {md_code(show_command(record.id))}")
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


def artifact(file: str, shown: Shown) -> dict[str, Any] | None:
    """A file as SARIF names it: relative to the workspace where it lies inside, else a file URI; None for a
    relative path when there is no current folder to take it from (no place code scanning could find)."""
    inside = shown.relative(file)
    if inside is not None:
        return {"uri": quote(inside, safe="/"), "uriBaseId": BASE_ID}
    if windows_path(file):  # a Windows machine's file, read elsewhere: a file URI all the same
        forward = file.replace("\\", "/")
        if forward.startswith("//"):  # a share: \\\\server\\share\\x.py is file://server/share/x.py
            return {"uri": "file:" + quote(forward, safe="/")}
        return {"uri": "file:///" + quote(forward, safe="/:")}
    if "\\" in file and "/" not in file:  # printed on Windows (`..\\lib\\x.py`), read here: the same parts
        file = file.replace("\\", "/")
    absolute = file if Path(file).is_absolute() else shown.absolute(file)
    return None if absolute is None else {"uri": Path(absolute).as_uri()}


def physical(where: dict[str, Any], line: int | None, column: int | None) -> dict[str, Any]:
    location: dict[str, Any] = {"artifactLocation": where}
    if line is not None and line >= 1:
        location["region"] = {"startLine": line, **({"startColumn": column} if column and column >= 1 else {})}
    return location


def _stack_frame(frame: Frame, shown: Shown) -> dict[str, Any]:
    where = artifact(safe(frame.file, 1000), shown)
    location: dict[str, Any] = {}
    if where is not None:
        location["physicalLocation"] = physical(where, frame.line, frame.column)
        if frame.function:
            location["message"] = {"text": safe(frame.function, 300)}
    else:  # no place to give: the frame as printed, in words
        location["message"] = {"text": format_frame(frame)}
    return {"location": location}


def _fallback_location(event: ErrorEvent, shown: Shown) -> dict[str, Any]:
    """Where an error with no frame of the user's lies: the place it was raised (a library's file), else the
    line of the log it was read from. Code scanning refuses a whole file for one result without a location."""
    raised = event.location or next((f for f in event.frames if f.file), None)
    where = artifact(safe(raised.file, 1000), shown) if raised is not None and raised.file else None
    if where is not None and raised is not None:
        return physical(where, raised.line, raised.column)
    log = artifact(safe(shown.input_name, 1000), shown) if shown.input_name else None
    return physical(log or {"uri": STDIN_URI}, event.line_number or None, None)


def result(finding: Finding, index: int, rule_index: int, shown: Shown) -> dict[str, Any]:
    """The report's finding `index` as a result of the rule `rule_index`."""
    event, best = finding.event, finding.best
    text = error_line(finding)
    if best is not None:
        fixes = [s for s in best.record.solutions if s.strip()]
        if fixes:
            text += f"\n\nFix: {_text(fixes[0], 1000)}"
    located = shown.report.located
    raised = located[index].raised if located is not None and best is None else None
    said = raised_words(raised)
    if said:
        text += "\n\n" + "\n".join(said)
    out: dict[str, Any] = {
        "ruleId": best.record.id if best is not None else UNKNOWN_RULE,
        "ruleIndex": rule_index,
        "level": "error" if best is not None else "warning",
        "message": {"text": text},
    }
    place = shown.place(index)
    where = None
    if place is not None:
        if place.path is not None:
            where = {"uri": quote(place.path, safe="/"), "uriBaseId": BASE_ID}
        else:
            where = artifact(safe(place.frame.file, 1000), shown)
    if place is not None and where is not None:
        out["locations"] = [{"physicalLocation": physical(where, place.line, place.column)}]
    else:
        out["locations"] = [{"physicalLocation": _fallback_location(event, shown)}]
    frames = [f for f in event.frames if f.file][:MAX_STACK_FRAMES]
    if frames:
        out["stacks"] = [{"frames": [_stack_frame(f, shown) for f in frames]}]
    properties: dict[str, Any] = {"language": event.language, "count": event.count}
    if event.test:
        properties["test"] = safe(event.test, 300)
    if best is not None:
        properties.update(score=best.score, method=best.method)
    if said and raised is not None:  # where a library raised an error no record explains (the JSON's `raised`)
        properties["raised"] = {
            k: v for k, v in raised_dict(raised).items() if k in ("library", "version", "url", "issues_url")
        }
    out["properties"] = properties
    return out


def sarif_log(rules: Sequence[dict[str, Any]], results: Sequence[dict[str, Any]], base: str, **properties: Any) -> str:
    """The log of one run; `base`: the workspace as shown (redacted)."""
    run: dict[str, Any] = {
        "tool": {
            "driver": {"name": "leafexplain", "version": __version__, "semanticVersion": __version__, "rules": rules}
        },
        "originalUriBaseIds": {BASE_ID: {"uri": Path(base).as_uri().rstrip("/") + "/"}},
        "columnKind": "unicodeCodePoints",
        "results": list(results),
    }
    if properties:
        run["properties"] = properties
    log = {"$schema": SARIF_SCHEMA, "version": SARIF_VERSION, "runs": [run]}
    return json.dumps(log, ensure_ascii=True, indent=2) + "\n"


def report_log(shown: Shown) -> str:
    """The report as one SARIF log: a rule per matched record (and one for errors without a record). The
    counts are read last: they hold the paths the results show."""
    report = shown.report
    rules: list[dict[str, Any]] = []
    index: dict[str, int] = {}
    results = []
    for number, finding in enumerate(report.findings):
        record = finding.best.record if finding.best is not None else None
        key = record.id if record is not None else UNKNOWN_RULE
        if key not in index:
            index[key] = len(rules)
            rules.append(rule(record) if record is not None else unknown_rule())
        results.append(result(finding, number, index[key], shown))
    redacted = None if report.redacted is None else dict(report.redacted)
    return sarif_log(rules, results, shown.base, threshold=report.threshold, dropped=report.dropped, redacted=redacted)


def write_report(shown: Shown, env: Environment, style: Style) -> None:
    emit(env, report_log(shown))


def write_record(record: Record, env: Environment, style: Style) -> None:
    emit(env, sarif_log([rule(record)], [], shown_workspace(env)))


def write_records(rows: list[Row], env: Environment, style: Style) -> None:
    emit(env, sarif_log([rule(record) for record, _ in rows], [], shown_workspace(env)))
