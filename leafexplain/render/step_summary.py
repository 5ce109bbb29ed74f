"""The Markdown summary of a run for `$GITHUB_STEP_SUMMARY`: its errors in a table, then each record's fixes and link.

GitHub shows it on the run's page, under the job. It stays short: a row per error (up to
MAX_ROWS), then what each explaining record means, its first fixes and where the library raises
it (each record once, up to MAX_DETAILS).
"""

from __future__ import annotations

from collections.abc import Iterable

from leafexplain.models import Finding, Located, Report
from leafexplain.render.fitting import first_sentences, safe
from leafexplain.render.formats.markdown import md_text
from leafexplain.render.naming import error_text, show_command
from leafexplain.render.summary import MEANING_SENTENCES, SOLUTIONS_SHOWN
from leafexplain.render.workspace import error_place
from leafexplain.text import safe_link

MAX_ROWS = 50
MAX_DETAILS = 10
CELL_CHARS = 200
COMMAND_CHARS = 200


def _cell(text: str) -> str:
    """One line of text fit for a table cell."""
    line = safe(text.strip().split("\n", 1)[0], CELL_CHARS)
    return md_text(line) or " "


def _code(text: str, *, in_table: bool = True) -> str:
    """Inline code that no backtick in `text` can end early, nor (in a table's cell) a `|` the cell."""
    if in_table:  # GFM splits cells before code spans: the `\\|` shows as `|` there, and only there
        text = text.replace("|", "\\|")
    return f"`` {text} ``" if "`" in text else f"`{text}`"


def _where(finding: Finding, found: Located | None, root: str) -> str:
    place = error_place(finding.event, found, root)
    if place is None:
        return " "
    where = place.path or safe(place.frame.file, 300)
    return _code(safe(where, 300) + (f":{place.line}" if place.line else ""))


def _record_cell(finding: Finding) -> str:
    best = finding.best
    if best is None:
        return "no record"
    record = best.record
    name = md_text(safe(f"{record.repo} · {record.slug}", CELL_CHARS))
    link = safe_link(record.working_url)
    return f"[{name}]({link})" if link else name


def _details(findings: Iterable[Finding]) -> list[str]:
    parts: list[str] = []
    seen: set[str] = set()
    for finding in findings:
        best = finding.best
        if best is None or best.record.id in seen or len(seen) >= MAX_DETAILS:
            continue
        seen.add(best.record.id)
        record = best.record
        parts.append(f"#### {_cell(error_text(finding.event))}")
        parts.append(f"Matched {md_text(safe(record.repo, 200))} · {md_text(safe(record.slug, 200))}")
        if record.documentation:
            meaning = first_sentences(record.documentation, count=MEANING_SENTENCES)
            parts.append(f"**What it means**: {md_text(safe(meaning, 1500))}")
        fixes = [safe(s, 600) for s in record.solutions if s.strip()][:SOLUTIONS_SHOWN]
        if fixes:
            parts.append("**How to fix it**\n\n" + "\n".join(f"{n}. {md_text(f)}" for n, f in enumerate(fixes, 1)))
        link = safe_link(record.working_url)
        more = f"More: {_code(show_command(safe(record.id, 64)))}"
        parts.append(f"[Where it is raised]({link}) · {more}" if link else more)
    return parts


def step_summary(report: Report, command: str, exit_code: int, root: str) -> str:
    """The summary of one run of `command`: its exit code, its errors, the records that explain them."""
    shown = safe(command, COMMAND_CHARS).replace("\n", " ")
    parts = [f"### leafexplain: {_code(shown, in_table=False)} exited with {exit_code}"]
    explained = sum(1 for f in report.findings if f.matches)
    total = len(report.findings)
    counts = f"{total} error{'s' if total != 1 else ''} found, {explained} explained by a record."
    if report.dropped:
        counts += f" {report.dropped} more were not read (only the first {report.limits.max_events} are kept)."
    if report.redacted:
        secrets = sum(n for _, n in report.redacted)
        kinds = ", ".join(f"{kind} {n}" for kind, n in report.redacted)
        counts += f" {secrets} secret{'s' if secrets != 1 else ''} redacted ({kinds})."
    if not report.findings:
        parts.append("No Rust panic or Python traceback in its output.")
        return "\n\n".join(parts) + "\n"
    parts.append(counts)
    located = report.located or (None,) * total
    rows = ["| error | where | explained by |", "| --- | --- | --- |"]
    for finding, found in list(zip(report.findings, located, strict=True))[:MAX_ROWS]:
        rows.append(
            f"| {_cell(error_text(finding.event))} | {_where(finding, found, root)} | {_record_cell(finding)} |"
        )
    if total > MAX_ROWS:
        rows.append(f"| … and {total - MAX_ROWS} more (see the log) | | |")
    parts.append("\n".join(rows))
    parts.extend(_details(report.findings))
    return "\n\n".join(parts) + "\n"
