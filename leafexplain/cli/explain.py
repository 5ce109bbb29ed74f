"""The commands that explain (`explain`, its fast path, `demo`, `run`) and the records every command loads.

No typer or click here: the fast path runs `run_explain` straight from the router.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from leafexplain.env import ColorChoice, Environment
from leafexplain.exitcodes import ExitStatus
from leafexplain.models import Limits
from leafexplain.named import NamedTuple
from leafexplain.render import LINE_FORMATS, Style, resolve_format, warn, warn_problems, write

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: the everyday path does without it
if TYPE_CHECKING:
    from collections.abc import Callable
    from contextlib import AbstractContextManager

    from leafexplain.models import Collected
    from leafexplain.records.catalog import Catalog
    from leafexplain.session import Callbacks, Input, RecordsOnce, Request


class Options(NamedTuple):
    """The values of the options commands share; a command that does not take one keeps its default."""

    text: tuple[str, ...] = ()
    file: str | None = None
    fmt: str = "auto"
    color: ColorChoice = "auto"
    width: int | None = None
    threshold: float | None = None
    show_all: bool = False
    full: bool = False
    verbose: bool = False
    records: tuple[str, ...] = ()
    no_bundled: bool = False
    no_source: bool = False
    root: str | None = None
    no_redact: bool = False

    @property
    def style(self) -> Style:
        return Style(
            self.fmt,
            self.color,
            self.width,
            full=self.full,
            show_all=self.show_all,
            verbose=self.verbose,
            input_name=self.file if self.file not in (None, "-") else None,
        )

    @property
    def limits(self) -> Limits:
        return Limits(threshold=self.threshold)


def load_catalog(opts: Options, env: Environment) -> Catalog:
    """The records, from the index (built first, with a progress bar on a terminal, if the record files changed);
    problems to stderr."""
    from leafexplain import session

    return session.open_records(
        opts.records, bundled=not opts.no_bundled, environ=env.environ, told=stderr_callbacks(env)
    )


def stderr_callbacks(env: Environment) -> Callbacks:
    """What loading the records tells the user: warnings and the records skipped on stderr, and the index's
    progress bar when stderr is a terminal (no bar on a pipe, nor its module)."""
    from leafexplain.session import Callbacks

    def bar() -> AbstractContextManager[Callable[[int, int], None] | None]:
        from leafexplain.render.progress import progress_bar

        return progress_bar(env, "indexing records")

    return Callbacks(
        progress=bar if env.stderr_isatty else None,
        warn=lambda message: warn(env, message),
        problems=lambda problems: warn_problems(env, problems),
    )


def run_explain(env: Environment, opts: Options) -> int:
    """Find every panic and traceback in the input and explain each one; the exit code.

    Raises NoInput when there is nothing to read (the command line makes it a usage error).
    """
    from leafexplain import session
    from leafexplain.render.commands import write_explanation

    if opts.no_redact:
        env = env.replace(redact=False)  # the diagnostics on stderr as they came, too
    if not _root_ok(opts, env):
        return ExitStatus.USAGE_ERROR
    given = session.CommandLine(opts.text, opts.file, env.stdin, env.stdin_isatty)
    report = session.explain_request(_request(given, opts, env, stderr_callbacks(env)))
    if report.findings or report.input_error is None:  # a read error part way: what came before is explained
        write_explanation(report, env, opts.style)
    if report.input_error is not None:
        warn(env, report.input_error)
        return ExitStatus.USAGE_ERROR
    return report.exit_status


def _request(
    given: Input, opts: Options, env: Environment, callbacks: Callbacks, records: RecordsOnce | None = None
) -> Request:
    from leafexplain import session

    return session.Request(
        given,
        records=session.Records(opts.records, bundled=not opts.no_bundled) if records is None else records,
        local=None if opts.no_source else session.Local(opts.root),
        limits=opts.limits,
        redact=not opts.no_redact,
        environ=env.environ,
        callbacks=callbacks,
    )


def _root_ok(opts: Options, env: Environment) -> bool:
    if opts.root is not None and not opts.no_source and not os.path.isdir(opts.root):
        warn(env, f"--root {opts.root}: not a folder")
        return False
    return True


def run_command(argv: Sequence[str], opts: Options, env: Environment) -> int:
    """`leafexplain run`: the command's output passed through, its errors explained on stderr; its exit code.

    In GitHub Actions (GITHUB_ACTIONS=true) the errors are also annotations, on stdout as the run
    ends, and a summary appended to $GITHUB_STEP_SUMMARY.
    """
    from leafexplain import session
    from leafexplain.cli.guard import StatusKept, settle
    from leafexplain.render.commands import write_actions, write_run, write_signal

    if opts.no_redact:
        env = env.replace(redact=False)  # the diagnostics on stderr as they came, too
    explaining = env.on_stderr()  # the explanation goes to stderr: the command's stdout stays its own
    if not _root_ok(opts, explaining):
        return ExitStatus.USAGE_ERROR
    in_actions = env.environ.get("GITHUB_ACTIONS") == "true"
    # The line formats (concise, jsonl) write each error's line as soon as the error is complete, the records
    # loaded once, at the first; the others write the explanation when the command has ended.
    streamed = resolve_format(opts.fmt, explaining, opts.color) in LINE_FORMATS
    records = session.RecordsOnce(opts.records, bundled=not opts.no_bundled, environ=env.environ)

    def each(one: Collected) -> None:
        with StatusKept(explaining):
            write(
                session.explain_request(_request(one, opts, env, session.Callbacks(), records)), explaining, opts.style
            )

    ran = session.run_command(argv, env, opts.limits, redact=not opts.no_redact, each=each if streamed else None)
    if ran.cannot_run is not None:
        # one line, and the code a shell gives, even where stderr cannot take it
        with StatusKept(explaining):
            warn(explaining, ran.cannot_run)
            settle(explaining)
        return ran.exit_code
    with StatusKept(explaining):
        # The records load silently here, as they always have for `run`: no bar, no warnings among its output.
        report = session.explain_request(_request(ran.collected, opts, env, session.Callbacks(), records))
        if not (in_actions and opts.fmt == "github"):  # the annotations on stdout say it already
            write_run(report, explaining, opts.style, ran.exit_code, ran.signal, streamed=streamed)
        else:
            write_signal(explaining, ran.signal, ran.exit_code)
        if in_actions:
            write_actions(report, env, command_line(argv), ran.exit_code, stdout_ended_line=ran.stdout_ended_line)
        settle(env)  # here: an output that cannot be written (`2>/dev/full`) must not take the command's status
    return ran.exit_code


def command_line(argv: Sequence[str]) -> str:
    """The command as a shell would take it, for the step summary (which redacts it with the report's paths)."""
    import shlex

    return shlex.join(argv)
