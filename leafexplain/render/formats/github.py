"""The github format: GitHub Actions workflow commands, one annotation per error at the user's frame.

`::error file=F,line=L,col=C,title=T::message` for an error a record explains, `::warning` for
one no record explains. GitHub shows at most 10 annotations of each kind per step (50 per job):
past that, the rest are counted in one `::notice`. Everything taken from the input or a record is
escaped as the workflow-command grammar wants (`%`, CR and LF in the message; `:` and `,` too in
a property), so no text can end the command early or start one of its own.
"""

from __future__ import annotations

from collections.abc import Mapping

from leafexplain.env import Environment
from leafexplain.models import Finding, Raised, Record
from leafexplain.render.fitting import safe
from leafexplain.render.naming import error_text, show_command
from leafexplain.render.shown import Shown
from leafexplain.render.streams import emit
from leafexplain.render.style import Row, Style
from leafexplain.render.workspace import Place
from leafexplain.text import safe_link

MAX_PER_KIND = 10  # GitHub shows this many error, and as many warning, annotations per step
MESSAGE_CHARS = 1500  # of the error's message, in an annotation
TITLE_CHARS = 200
FIX_CHARS = 600


def escape_data(text: str) -> str:
    """A workflow command's message: `%`, CR and LF encoded, so that it stays one line."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """A workflow command's property value: as a message, and `:` and `,` encoded too."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def workflow_command(kind: str, properties: Mapping[str, object], message: str) -> str:
    """One workflow command line; properties with no value are left out."""
    given = ",".join(f"{name}={escape_property(str(value))}" for name, value in properties.items() if value is not None)
    return f"::{kind}{' ' + given if given else ''}::{escape_data(message)}\n"


def error_line(finding: Finding) -> str:
    """The error as printed: its type and message, bounded."""
    return safe(error_text(finding.event).strip(), MESSAGE_CHARS)


def record_link(record: Record) -> str | None:
    return safe_link(record.working_url)


def raised_words(raised: Raised | None) -> list[str]:
    """Where a library raised an error no record explains, and its link; the search of its issues."""
    if not raised or not raised.library:  # a lookup that found nothing is falsy (locate/raised.py)
        return []
    from leafexplain.render.sections import raised_place

    link, issues = safe_link(raised.url), safe_link(raised.issues_url)
    return [f"Raised in {raised_place(raised)}" + (f": {link}" if link else "")] + (
        [f"Its issues: {issues}"] if issues else []
    )


def annotation(finding: Finding, place: Place | None, raised: Raised | None = None) -> tuple[str, str]:
    """The kind (`error` or `warning`) and the command line for one error, at its `place` (as shown); for one no
    record explains, where the library raised it (`raised`, as shown)."""
    event, best = finding.event, finding.best
    error_type = safe(event.error_type or "error", 100)
    properties: dict[str, object] = {}
    if place is not None and place.path is not None:
        properties = {"file": place.path, "line": place.line, "endLine": place.line, "col": place.column}
    body = [error_line(finding)]
    if place is not None and place.path is None:
        body.append(f"At {safe(place.frame.file, 500)}" + (f":{place.line}" if place.line else ""))
    if event.test:
        body.append(f"In test {safe(event.test, 300)}")
    if event.count > 1:
        body.append(f"Seen {event.count} times.")
    if best is None:
        properties["title"] = safe(f"{error_type} (no leafexplain record)", TITLE_CHARS)
        body += raised_words(raised)
        body.append("No record explains this error: try `leafexplain search` with its message.")
        return "warning", workflow_command("warning", properties, "\n".join(body))
    record = best.record
    properties["title"] = safe(f"{error_type} · {record.repo}: {record.slug}", TITLE_CHARS)
    fixes = [s for s in record.solutions if s.strip()]
    if fixes:
        body.append(f"Fix: {safe(fixes[0], FIX_CHARS)}")
    link = record_link(record)
    if link:
        body.append(f"Where it is raised: {link}")
    body.append(f"More: {show_command(safe(record.id, 64))}")
    return "error", workflow_command("error", properties, "\n".join(body))


def annotations(shown: Shown) -> str:
    """Every error's annotation, within GitHub's limits per step; one notice counts the rest."""
    report = shown.report
    written = {"error": 0, "warning": 0}
    left = {"error": 0, "warning": 0}
    lines: list[str] = []
    located = report.located
    for index, finding in enumerate(report.findings):
        kind, line = annotation(finding, shown.place(index), located[index].raised if located else None)
        if written[kind] < MAX_PER_KIND:
            written[kind] += 1
            lines.append(line)
        else:
            left[kind] += 1
    if left["error"] or left["warning"] or report.dropped:
        counted = [f"{left['error']} explained", f"{left['warning']} without a record"]
        if report.dropped:
            counted.append(f"{report.dropped} beyond the first {report.limits.max_events} distinct errors")
        more = left["error"] + left["warning"] + report.dropped
        message = (
            f"{more} more errors are not annotated ({', '.join(counted)}): GitHub shows {MAX_PER_KIND} "
            "annotations of each kind per step. The log and the step summary have them all."
        )
        lines.append(workflow_command("notice", {"title": "leafexplain"}, message))
    return "".join(lines)


def write_report(shown: Shown, env: Environment, style: Style) -> None:
    emit(env, annotations(shown))


# A record or a table of them belongs to no file and no step: `show`, `list` and `search` write plain text.
def write_record(record: Record, env: Environment, style: Style) -> None:
    from leafexplain.render.formats import plain

    plain.write_record(record, env, style)


def write_records(rows: list[Row], env: Environment, style: Style) -> None:
    from leafexplain.render.formats import plain

    plain.write_records(rows, env, style)
