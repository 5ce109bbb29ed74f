"""The Markdown summary of a run for `$GITHUB_STEP_SUMMARY`: its errors in a table, then each record's fixes and link.

GitHub shows it on the run's page, under the job. It stays short: a row per error (up to
MAX_ROWS), then what each explaining record means, its first fixes and where the library raises
it (each record once, up to MAX_DETAILS).

What a pull request controls (the command, the paths in its frames, the messages its code raises, a
record of its own) is Markdown that shows exactly that text: code spans, links and escaping are the
Markdown format's (`md_code`, `md_link`, `md_escape`), so that no text of the input can end a code
span, open a link, an image or HTML, start a heading or break the table.
"""

from __future__ import annotations

from collections.abc import Iterable

from leafexplain.models import Finding
from leafexplain.render.fitting import first_sentences, safe
from leafexplain.render.formats.markdown import md_code, md_escape, md_link, md_text
from leafexplain.render.naming import error_text, show_command
from leafexplain.render.shown import Shown
from leafexplain.render.summary import MEANING_SENTENCES, SOLUTIONS_SHOWN
from leafexplain.render.workspace import Place
from leafexplain.text import safe_link

MAX_ROWS = 50
MAX_DETAILS = 10
CELL_CHARS = 200
COMMAND_CHARS = 200


def _one_line(text: str, limit: int) -> str:
    """`text` made safe and bounded, on one line (the note of a cut included): a line break ends a table's row."""
    return " ".join(safe(text, limit).split("\n"))


def _cell(text: str) -> str:
    """The first line of input text, escaped, fit for a table cell (or a heading)."""
    return md_escape(_one_line(text.strip().split("\n", 1)[0], CELL_CHARS)) or " "


def _where(place: Place | None) -> str:
    if place is None:
        return " "
    where = place.path or place.frame.file
    return md_code(_one_line(where, 300) + (f":{place.line}" if place.line else ""), in_table=True)


def _record_cell(finding: Finding) -> str:
    best = finding.best
    if best is None:
        return "no record"
    record = best.record
    name = _cell(f"{record.repo} · {record.slug}")
    link = safe_link(record.working_url)
    return md_link(name, link) if link else name


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
        parts.append(f"Matched {_cell(record.repo)} · {_cell(record.slug)}")
        if record.documentation:
            meaning = first_sentences(record.documentation, count=MEANING_SENTENCES)
            parts.append(f"**What it means**: {md_text(safe(meaning, 1500))}")
        fixes = [safe(s, 600) for s in record.solutions if s.strip()][:SOLUTIONS_SHOWN]
        if fixes:
            parts.append("**How to fix it**\n\n" + "\n".join(f"{n}. {md_text(f)}" for n, f in enumerate(fixes, 1)))
        link = safe_link(record.working_url)
        more = f"More: {md_code(show_command(_one_line(record.id, 64)))}"
        parts.append(f"{md_link('Where it is raised', link)} · {more}" if link else more)
    return parts


def step_summary(shown: Shown, command: str, exit_code: int) -> str:
    """The summary of one run of `command`: its exit code, its errors, the records that explain them. The
    command and the paths come through `shown` (redacted), before the counts are written."""
    report = shown.report
    parts = [f"### leafexplain: {md_code(_one_line(shown.text(command), COMMAND_CHARS))} exited with {exit_code}"]
    rows = ["| error | where | explained by |", "| --- | --- | --- |"]
    for index, finding in enumerate(report.findings[:MAX_ROWS]):
        rows.append(f"| {_cell(error_text(finding.event))} | {_where(shown.place(index))} | {_record_cell(finding)} |")
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
    if total > MAX_ROWS:
        rows.append(f"| … and {total - MAX_ROWS} more (see the log) | | |")
    parts.append("\n".join(rows))
    parts.extend(_details(report.findings))
    return "\n\n".join(parts) + "\n"
