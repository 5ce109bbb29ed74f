"""What `explain` and `run` write around a report: what was not explained and why, on stderr, then the report;
in GitHub Actions, `run`'s annotations and step summary too."""

from __future__ import annotations

from leafexplain.env import Environment
from leafexplain.models import Report
from leafexplain.render import DOCUMENT_FORMATS, LINE_FORMATS, Style, emit, warn, write


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


# What to run next after a crash: the frames it died in, or the core it left.
_AFTER_A_CRASH = (
    "; for its frames run Python with `python -X faulthandler`, Rust with RUST_BACKTRACE=1; for a core dump"
    " to read, `ulimit -c unlimited` before the run, then `coredumpctl debug`"
)
# The signal that ended `run`'s command: what it says happened, and what to do about it.
SIGNAL_MEANINGS = {
    "SIGKILL": (
        "was killed by SIGKILL",
        ", most often by the kernel's out-of-memory killer; to confirm: `dmesg | grep -i -E 'killed process|out of"
        " memory'` (or `journalctl -k`)",
    ),
    "SIGSEGV": ("crashed with SIGSEGV", ", a segmentation fault" + _AFTER_A_CRASH),
    "SIGABRT": ("aborted with SIGABRT", _AFTER_A_CRASH),
    "SIGBUS": ("crashed with SIGBUS", ", a bus error" + _AFTER_A_CRASH),
    "SIGILL": ("crashed with SIGILL", ", an illegal instruction (built for another CPU?)" + _AFTER_A_CRASH),
    "SIGFPE": ("crashed with SIGFPE", ", an arithmetic error (an integer divided by zero)" + _AFTER_A_CRASH),
    "SIGTERM": ("was ended by SIGTERM", ": something asked it to stop (a timeout, the job's scheduler, `kill`)"),
}
# Ctrl-C and a reader gone (`| head`): the user's own doing, said by the exit code alone.
QUIET_SIGNALS = frozenset({"SIGINT", "SIGPIPE"})


def signal_line(signal: str, exit_code: int) -> str | None:
    """The one line saying which signal ended `run`'s command and what to do next; None for a quiet one."""
    if signal in QUIET_SIGNALS:
        return None
    what, next_step = SIGNAL_MEANINGS.get(signal, (f"was ended by {signal}", ""))
    return f"the command {what} (exit {exit_code}){next_step}"


def write_signal(env: Environment, signal: str | None, exit_code: int) -> None:
    """`run`: the line for the signal that ended the command, if one did."""
    line = signal_line(signal, exit_code) if signal else None
    if line is not None:
        warn(env, line)


def write_run(
    report: Report,
    env: Environment,
    style: Style,
    exit_code: int,
    signal: str | None = None,
    *,
    streamed: bool = False,
) -> None:
    """`run`: what `explain` shows for the command's output; a line for a failure without an error in it,
    nothing for a run that went well (a document format: the document, whatever happened); after it, the
    line for the signal that ended the command (not in a document format: the document is the whole output).
    A line format writes its lines alone (`streamed`: they were written as each error completed)."""
    if not report.findings and style.format not in DOCUMENT_FORMATS:
        if signal_line(signal, exit_code) if signal else None:
            write_signal(env, signal, exit_code)  # what failed, said once
        elif exit_code != 0:
            warn(env, f"the command failed (exit {exit_code}); no Rust panic or Python traceback in its output")
        return
    if style.format in DOCUMENT_FORMATS:
        write(report, env, style)  # a tool reads it
        return
    if style.format == "github" or style.format in LINE_FORMATS:
        if not streamed:
            write(report, env, style)  # every error, and nothing around them (github: an unexplained one warns)
    else:
        env.stdout.write("\n")  # apart from the command's own last line
        write_explanation(report, env, style)
    write_signal(env, signal, exit_code)


def write_actions(
    report: Report, env: Environment, command: str, exit_code: int, *, stdout_ended_line: bool = True
) -> None:
    """`run` in GitHub Actions: an annotation per error on stdout, where the runner reads workflow
    commands, and the Markdown summary appended to `$GITHUB_STEP_SUMMARY` (when the runner set it).

    The runner reads a workflow command only at the start of a line: when the command's own stdout did not
    end one (`stdout_ended_line` False), a newline comes first, or the first annotation would be glued to
    its last line and lost.
    """
    from leafexplain.render.formats.github import annotations
    from leafexplain.render.shown import Shown
    from leafexplain.render.step_summary import step_summary

    shown = Shown(report, env.environ)  # once for both: each path, and the command, redacted and counted once
    if report.findings:
        emit(env, ("" if stdout_ended_line else "\n") + annotations(shown))
    path = env.environ.get("GITHUB_STEP_SUMMARY")
    if not path or (not report.findings and exit_code == 0):
        return
    try:
        with open(path, "a", encoding="utf-8") as summary:
            summary.write(step_summary(shown, command, exit_code) + "\n")
    except OSError as exc:
        warn(env, f"cannot write the step summary to {path}: {exc.strerror or exc}")
