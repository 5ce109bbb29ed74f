"""What `explain` and `run` write around a report: what was not explained and why, on stderr, then the report."""

from __future__ import annotations

from leafexplain.env import Environment
from leafexplain.models import Report
from leafexplain.render import Style, warn, write


def write_explanation(report: Report, env: Environment, style: Style) -> None:
    """`explain`: every finding (an unexplained one with the nearest records); a line when none."""
    if report.dropped:
        kept = report.limits.max_events
        warn(env, f"{report.dropped} more errors were not explained (only the first {kept} distinct ones are kept)")
    if not report.findings:
        warn(env, "no error found in the input (no Rust panic, Python traceback or error a record explains)")
        if style.format == "json":
            write(report, env, style)  # the envelope, with no events: tools read a document either way
        return
    write(report, env, style)


def write_run(report: Report, env: Environment, style: Style, exit_code: int) -> None:
    """`run`: what `explain` shows for the command's output; a line for a failure without an error in it,
    nothing for a run that went well (JSON: the envelope, whatever happened)."""
    if style.format == "json":
        write(report, env, style)
        return
    if not report.findings:
        if exit_code != 0:
            warn(env, f"the command failed (exit {exit_code}); no Rust panic or Python traceback in its output")
        return
    env.stdout.write("\n")  # apart from the command's own last line
    write_explanation(report, env, style)
