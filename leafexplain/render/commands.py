"""What `explain` and `run` write around a report: what was not explained and why, on stderr, then the report;
in GitHub Actions, `run`'s annotations and step summary too."""

from __future__ import annotations

from leafexplain.env import Environment
from leafexplain.models import Report
from leafexplain.render import DOCUMENT_FORMATS, Style, emit, warn, write


def write_explanation(report: Report, env: Environment, style: Style) -> None:
    """`explain`: every finding in full (an unexplained one with the nearest records); a line when none."""
    if report.dropped:
        kept = report.limits.max_events
        warn(env, f"{report.dropped} more errors were not explained (only the first {kept} distinct ones are kept)")
    if not report.findings:
        warn(env, "no error found in the input: no panic, traceback or error a record explains")
        if style.format in DOCUMENT_FORMATS:
            write(report, env, style)  # the envelope, with no events: tools read a document either way
        return
    write(report, env, style)


def write_run(report: Report, env: Environment, style: Style, exit_code: int) -> None:
    """`run`: what `explain` shows for the command's output; a line for a failure without an error in it,
    nothing for a run that went well (a document format: the document, whatever happened)."""
    if not report.findings and style.format not in DOCUMENT_FORMATS:
        if exit_code != 0:
            warn(env, f"the command failed (exit {exit_code}); no Rust panic or Python traceback in its output")
        return
    if style.format in DOCUMENT_FORMATS or style.format == "github":
        write(report, env, style)  # every error: a tool reads them, an unexplained one is a warning annotation
        return
    env.stdout.write("\n")  # apart from the command's own last line
    write_explanation(report, env, style)


def write_actions(report: Report, env: Environment, command: str, exit_code: int) -> None:
    """`run` in GitHub Actions: an annotation per error on stdout, where the runner reads workflow
    commands, and the Markdown summary appended to `$GITHUB_STEP_SUMMARY` (when the runner set it)."""
    from leafexplain.render.formats.github import annotations
    from leafexplain.render.step_summary import step_summary
    from leafexplain.render.workspace import workspace

    if report.findings:
        emit(env, annotations(report, env.environ))
    path = env.environ.get("GITHUB_STEP_SUMMARY")
    if not path or (not report.findings and exit_code == 0):
        return
    try:
        with open(path, "a", encoding="utf-8") as summary:
            summary.write(step_summary(report, command, exit_code, workspace(env.environ)) + "\n")
    except OSError as exc:
        warn(env, f"cannot write the step summary to {path}: {exc.strerror or exc}")
