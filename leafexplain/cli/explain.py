"""The commands that explain (`explain`, its fast path, `demo`, `run`) and the records every command loads.

No typer or click here: the fast path runs `run_explain` straight from the router.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence

from leafexplain.env import ColorChoice, Environment
from leafexplain.exitcodes import ExitStatus
from leafexplain.models import Limits
from leafexplain.named import NamedTuple
from leafexplain.render import Style, warn, warn_problems

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: the everyday path does without it
if TYPE_CHECKING:
    from leafexplain.locate import LocalPaths
    from leafexplain.records.catalog import Catalog


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
    """The records, from the index (built first, with a progress bar, if the record files changed); problems
    to stderr."""
    from leafexplain.records import open_catalog

    warned: list[str] = []

    def warn_once(message: str) -> None:
        if message not in warned:
            warned.append(message)
            warn(env, message)

    def opened(progress: Callable[[int, int], None] | None) -> Catalog:
        return open_catalog(
            opts.records, bundled=not opts.no_bundled, environ=env.environ, progress=progress, warn=warn_once
        )

    if env.stderr_isatty:
        from leafexplain.render.progress import progress_bar

        with progress_bar(env, "indexing records") as progress:
            catalog = opened(progress)
    else:
        catalog = opened(None)  # no bar on a pipe (nor its module)
    warn_problems(env, catalog.problems)
    return catalog


def run_explain(env: Environment, opts: Options) -> int:
    """Find every panic and traceback in the input and explain each one; the exit code.

    Raises NoInput when there is nothing to read (the command line makes it a usage error).
    """
    from leafexplain import session
    from leafexplain.intake.reading import InputError, input_chunks
    from leafexplain.match import Matcher
    from leafexplain.render.commands import write_explanation

    if opts.no_redact:
        env = env.replace(redact=False)  # the diagnostics on stderr as they came, too
    if not _root_ok(opts, env):
        return ExitStatus.USAGE_ERROR
    try:
        chunks = input_chunks(opts.text, opts.file, env)
    except InputError as exc:
        warn(env, str(exc))
        return ExitStatus.USAGE_ERROR
    matcher = Matcher(load_catalog(opts, env))
    report = session.explain(
        chunks, matcher, opts.limits, typed=bool(opts.text), local=_local_paths(opts, env), redact=not opts.no_redact
    )
    error = getattr(chunks, "error", None)  # the input ended with a read error: what came before is explained
    if report.findings or not error:
        write_explanation(report, env, opts.style)
    if error:
        warn(env, error)
        return ExitStatus.USAGE_ERROR
    return report.exit_status


def _root_ok(opts: Options, env: Environment) -> bool:
    if opts.root is not None and not opts.no_source and not os.path.isdir(opts.root):
        warn(env, f"--root {opts.root}: not a folder")
        return False
    return True


def _local_paths(opts: Options, env: Environment) -> LocalPaths | None:
    """Where your code and the library's are looked for on this machine (a few stats and small reads);
    None with --no-source."""
    if opts.no_source:
        return None
    from leafexplain.locate import LocalPaths

    return LocalPaths.from_environment(env.environ, os.fspath(opts.root) if opts.root is not None else None)


def run_command(argv: Sequence[str], opts: Options, env: Environment) -> int:
    """`leafexplain run`: the command's output passed through, its errors explained on stderr; its exit code.

    In GitHub Actions (GITHUB_ACTIONS=true) the errors are also annotations, on stdout as the run
    ends, and a summary appended to $GITHUB_STEP_SUMMARY.
    """
    from leafexplain import session
    from leafexplain.cli.guard import StatusKept, settle
    from leafexplain.intake.process import EXIT_CANNOT_RUN, EXIT_NOT_FOUND, child_environment, run_and_scan
    from leafexplain.render.commands import write_actions, write_run

    if opts.no_redact:
        env = env.replace(redact=False)  # the diagnostics on stderr as they came, too
    explaining = env.on_stderr()  # the explanation goes to stderr: the command's stdout stays its own
    if not _root_ok(opts, explaining):
        return ExitStatus.USAGE_ERROR
    in_actions = env.environ.get("GITHUB_ACTIONS") == "true"

    def ended(code: int, message: str) -> int:
        """The command could not run: one line, and the code a shell gives, even where stderr cannot take it."""
        with StatusKept(explaining):
            warn(explaining, message)
            settle(explaining)
        return code

    if not argv[0]:  # `run -- ""`: no program named, as a shell says it
        return ended(EXIT_NOT_FOUND, "'': command not found")
    try:
        outcome = run_and_scan(argv, child_env=child_environment(env), limits=opts.limits, redact=not opts.no_redact)
    except FileNotFoundError:
        return ended(EXIT_NOT_FOUND, f"{argv[0]}: command not found")
    except OSError as exc:
        return ended(EXIT_CANNOT_RUN, f"{argv[0]}: cannot run: {exc.strerror or exc}")
    with StatusKept(explaining):
        records = session.RecordsOnce(opts.records, bundled=not opts.no_bundled, environ=env.environ)
        report = session.explain(outcome.collected, records, opts.limits, local=_local_paths(opts, env))
        if not (in_actions and opts.fmt == "github"):  # the annotations on stdout say it already
            write_run(report, explaining, opts.style, outcome.exit_code)
        if in_actions:
            write_actions(report, env, command_line(argv, redact=not opts.no_redact), outcome.exit_code)
        settle(env)  # here: an output that cannot be written (`2>/dev/full`) must not take the command's status
    return outcome.exit_code


def command_line(argv: Sequence[str], *, redact: bool) -> str:
    """The command as a shell would take it, for the step summary; a token in its arguments is redacted."""
    import shlex

    shown = shlex.join(argv)
    if redact:
        from leafexplain.redact import redact as redacted

        shown = redacted(shown)
    return shown
