"""The one conductor of the pipeline: a Request in, a Report out. Nothing here prints.

Every way in (the command line's `explain`, `demo` and `run`, the excepthook, the pytest plugin and
the api) says what it wants as a `Request`: where the input is, which records, where the user's
code is, the limits, redaction, and the callbacks it wants told (the index's progress, warnings,
records skipped). `explain_request` opens the input, loads the records only when there is an error
to explain, finds the errors, matches and locates them, and puts a read error in the Report; the
caller renders it. `explain` is the pipeline's core for input already in hand (text, bytes, pieces
of a stream, events collected) and records given.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping, Sequence

from leafexplain.intake.collect import Source, collect
from leafexplain.intake.reading import Chunks, input_chunks
from leafexplain.match import DEFAULT_THRESHOLD, Matcher
from leafexplain.models import Collected, Finding, InputError, Limits, Problem, Report
from leafexplain.named import NamedTuple

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: the everyday path does without it
if TYPE_CHECKING:
    from contextlib import AbstractContextManager
    from types import TracebackType
    from typing import BinaryIO

    from leafexplain.env import Environment
    from leafexplain.locate import LocalPaths
    from leafexplain.records.catalog import Catalog

    # `with bar() as update:` a callback `(done, total)`, or None for no bar.
    ProgressBar = Callable[[], AbstractContextManager[Callable[[int, int], None] | None]]

# --- what a request holds --------------------------------------------------------------------------


class CommandLine(NamedTuple):
    """The command line's input: its words (one error meant), else its file (`-`: stdin), else stdin when it is
    piped, not a terminal. `stdin` None: closed before the start."""

    text: tuple[str, ...] = ()
    file: str | None = None
    stdin: BinaryIO | None = None
    stdin_isatty: bool = True


class Text(NamedTuple):
    """A program's text, bytes or pieces of a stream (of any size: memory stays bounded). `pasted`: a person
    gave it, so a short text with nothing else in it may be a bare message (a program's output never is)."""

    source: Source
    pasted: bool = True


class LiveException(NamedTuple):
    """An exception being handled (its causes and context included), explained from the traceback Python prints."""

    type: type[BaseException]
    value: BaseException | None
    traceback: TracebackType | None


# `Collected`: a command's output, its events already found as it passed through (`run_command`).
Input = CommandLine | Text | LiveException | Collected


class Records(NamedTuple):
    """Which records to match against: the bundled ones (unless `bundled` is False), the user's folder,
    LEAFEXPLAIN_RECORDS, and the files or folders of `extra`."""

    extra: tuple[str, ...] = ()
    bundled: bool = True


class Local(NamedTuple):
    """Where the user's code and the libraries' source are read from this machine; `root`: the folder tried
    first for relative paths (then the current folder and its project)."""

    root: str | None = None


class Callbacks(NamedTuple):
    """What the caller wants told while records load (nothing in the pipeline prints): the index build's
    progress bar, a warning (each once), the records skipped. None: not told."""

    progress: ProgressBar | None = None
    warn: Callable[[str], None] | None = None
    problems: Callable[[Sequence[Problem]], None] | None = None


class Request(NamedTuple):
    """One explanation asked for. `records`: a spec, loaded only when there is an error to explain, records already
    loaded, or a function giving them (`RecordsOnce`); `local` None: nothing read from this machine (--no-source);
    `environ`: the variables naming the records' folders and where installed code is (None: this process's)."""

    input: Input
    records: Records | Matcher | Callable[[], Matcher] = Records()
    local: Local | None = None
    limits: Limits = Limits()
    redact: bool = True
    environ: Mapping[str, str] | None = None
    callbacks: Callbacks = Callbacks()


class Ran(NamedTuple):
    """A command run by `run_command`: its exit code as a shell gives it, the errors its output held, the one
    line saying why it could not run (None: it ran), whether its stdout, passed through, ended a line (what we
    write on stdout next, a workflow command, must start one), and the signal that ended it (`SIGKILL`; None:
    it exited, or did not run), for render/ to say what it means."""

    exit_code: int
    collected: Collected = Collected()
    cannot_run: str | None = None
    stdout_ended_line: bool = True
    signal: str | None = None


# --- the conductor -------------------------------------------------------------------------------


def explain_request(request: Request) -> Report:
    """The Report for one request: its input opened and read, its errors found and matched (the records loaded
    at the first one), the user's code and the library's source read here (with `local`). An input that
    cannot be read, or not to its end, is `report.input_error` (what came before it is explained).

    Raises NoInput when the command line gives nothing to read, and ValueError for a cut-off that is not a
    number from 0 to 100.
    """
    limits = request.limits
    environ = os.environ if request.environ is None else request.environ
    given = request.input
    chunks: Chunks | None = None
    typed = False
    if isinstance(given, CommandLine):
        try:
            chunks = input_chunks(given.text, given.file, given.stdin, given.stdin_isatty)
        except InputError as exc:
            return Report((), _threshold(limits), limits=limits, input_error=str(exc))
        source: Source | Collected = chunks
        pasted, typed = True, bool(given.text)
    elif isinstance(given, LiveException):
        import traceback

        source, pasted = "".join(traceback.format_exception(given.type, given.value, given.traceback)), False
    elif isinstance(given, Text):
        source, pasted = given.source, given.pasted
    else:
        source, pasted = given, False
    report = explain(source, _loader(request, environ), limits, pasted=pasted, typed=typed, redact=request.redact)
    if chunks is not None and chunks.error is not None:
        report = report._replace(input_error=chunks.error)
    if request.local is not None and report.findings:
        report = locate(report, request.local, environ)
    return report


def _loader(request: Request, environ: Mapping[str, str]) -> Matcher | Callable[[], Matcher]:
    """The request's records, or how to load them when an error asks for them."""
    records = request.records
    if not isinstance(records, Records):
        return records
    spec, told = records, request.callbacks

    def loaded() -> Matcher:
        return load_matcher(spec.extra, bundled=spec.bundled, environ=environ, told=told)

    return loaded


def explain(
    source: Source | Collected,
    records: Matcher | Callable[[], Matcher],
    limits: Limits = Limits(),
    *,
    pasted: bool = True,
    typed: bool = False,
    redact: bool = True,
) -> Report:
    """Find the errors in `source` and match each against the records (called for only when there is one).

    `pasted`: text a person gave, where a short input with nothing else in it is one bare message;
    `typed`: given as arguments, so that such a message is meant as an error even when no record has it.
    Events found by a guess (that bare message otherwise, a warning) stay only when a record explains them.
    `redact`: secrets in the input are replaced as it is read (a Collected was redacted, or not, when it was
    collected). Raises ValueError for a cut-off that is not a number from 0 to 100 (`nan` included).
    """
    _check_threshold(limits)
    collected = (
        source if isinstance(source, Collected) else collect(source, limits, pasted=pasted, typed=typed, redact=redact)
    )
    if not collected.events and not isinstance(records, Matcher):
        # nothing to explain: no records loaded
        return Report((), _threshold(limits), collected.dropped, limits=limits, redacted=collected.redacted)
    matcher = records if isinstance(records, Matcher) else records()
    findings = _kept(
        matcher.match(event, threshold=limits.threshold, matches_only=event.tentative) for event in collected.events
    )
    threshold = matcher.threshold if limits.threshold is None else limits.threshold
    return Report(findings, threshold, collected.dropped, limits=limits, redacted=collected.redacted)


def _check_threshold(limits: Limits) -> None:
    if limits.threshold is not None and not 0 <= limits.threshold <= 100:  # false for nan too
        raise ValueError(f"the threshold must be a number from 0 to 100, not {limits.threshold}")


def _threshold(limits: Limits) -> float:
    """The cut-off of a report no matcher was asked for."""
    return DEFAULT_THRESHOLD if limits.threshold is None else limits.threshold


def _kept(findings: Iterable[Finding]) -> tuple[Finding, ...]:
    """The findings to report: a guess only when a record explains it, and not when it is the rest of the error
    just before it (a later part of the same record's wording: `Missing key(s) ...` under `Error(s) in
    loading state_dict ...` pasted without its indent)."""
    kept: list[Finding] = []
    for finding in findings:
        if finding.event.tentative:
            best = finding.best
            if best is None:
                continue
            previous = kept[-1].best if kept else None
            if best.method == "part" and previous is not None and previous.record.id == best.record.id:
                continue
        kept.append(finding)
    return tuple(kept)


def locate(report: Report, local: Local, environ: Mapping[str, str] = os.environ) -> Report:
    """The report with the user's code and each match's installed library source, from this machine.

    The lines read here (the user's, a library's, the source cache's) are redacted as they come in, as the
    input was (unless redaction is off for this report); their secrets are added to the report's counts.
    """
    from leafexplain.locate import LocalPaths

    return located_in(report, LocalPaths.from_environment(environ, local.root))


def located_in(report: Report, paths: LocalPaths) -> Report:
    """`locate` with the places already worked out (a caller, or a test, that sets them itself)."""
    from leafexplain.locate import find_sources

    if report.redacted is None:
        return report._replace(located=find_sources(report.findings, paths))
    from leafexplain.redact import RedactedSoFar, Redactor

    redactor = Redactor()
    located = find_sources(report.findings, paths, redactor)
    return report._replace(located=located, redacted=RedactedSoFar(report.redacted, redactor))


# --- the records ---------------------------------------------------------------------------------


def open_records(
    extra: Iterable[str] = (),
    *,
    bundled: bool = True,
    environ: Mapping[str, str] = os.environ,
    told: Callbacks = Callbacks(),
) -> Catalog:
    """The records from every source, from the index (built first if the record files changed, its progress
    told); trouble with the index told once each, the records skipped told as one list."""
    from leafexplain.records import open_catalog

    warned: list[str] = []

    def warn_once(message: str) -> None:
        if message not in warned:
            warned.append(message)
            if told.warn is not None:
                told.warn(message)

    if told.progress is None:
        catalog = open_catalog(tuple(extra), bundled=bundled, environ=environ, warn=warn_once)
    else:
        with told.progress() as progress:
            catalog = open_catalog(tuple(extra), bundled=bundled, environ=environ, progress=progress, warn=warn_once)
    if told.problems is not None:
        told.problems(catalog.problems)
    return catalog


def load_matcher(
    extra: Iterable[str] = (),
    *,
    bundled: bool = True,
    environ: Mapping[str, str] = os.environ,
    told: Callbacks = Callbacks(),
) -> Matcher:
    """The records from every source, ready to match, from the index when it is current.

    Record problems are told to `told.problems` when given; `matcher.catalog.problems` lists them too.
    """
    return Matcher(open_records(extra, bundled=bundled, environ=environ, told=told))


class RecordsOnce:
    """Records loaded at the first error and kept: the excepthook and the pytest plugin explain many with one load."""

    def __init__(
        self, extra: Iterable[str] = (), *, bundled: bool = True, environ: Mapping[str, str] = os.environ
    ) -> None:
        self.extra, self.bundled, self.environ = tuple(extra), bundled, environ
        self.matcher: Matcher | None = None

    def __call__(self) -> Matcher:
        if self.matcher is None:
            self.matcher = load_matcher(self.extra, bundled=self.bundled, environ=self.environ)
        return self.matcher


# --- a command's output --------------------------------------------------------------------------


def run_command(
    argv: Sequence[str],
    env: Environment,
    limits: Limits = Limits(),
    *,
    redact: bool = True,
    each: Callable[[Collected], None] | None = None,
) -> Ran:
    """`leafexplain run`'s command, run: its output passed through to ours as it comes (our stdout a terminal,
    it keeps its colour), its errors collected, their secrets redacted unless `redact` is False. `each` is
    handed each distinct error as soon as it is complete, while the command runs, as a Collected of one to
    explain (`explain_request`). A command that cannot run is a Ran with the code a shell gives and the line
    a shell says."""
    from leafexplain.intake.process import EXIT_CANNOT_RUN, EXIT_NOT_FOUND, child_environment, run_and_scan

    if not argv[0]:  # `run -- ""`: no program named, as a shell says it
        return Ran(EXIT_NOT_FOUND, cannot_run="'': command not found")
    try:
        told = None if each is None else (lambda event: each(Collected((event,), redacted=() if redact else None)))
        outcome = run_and_scan(argv, child_env=child_environment(env), limits=limits, redact=redact, each=told)
    except FileNotFoundError:
        return Ran(EXIT_NOT_FOUND, cannot_run=f"{argv[0]}: command not found")
    except OSError as exc:
        return Ran(EXIT_CANNOT_RUN, cannot_run=f"{argv[0]}: cannot run: {exc.strerror or exc}")
    return Ran(outcome.exit_code, outcome.collected, stdout_ended_line=outcome.stdout_ended_line, signal=outcome.signal)
