"""The explain command's work, shared by the CLI and its fast path: options in, exit code out."""

from __future__ import annotations

import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from leafexplain.env import Environment
from leafexplain.exitcodes import ExitStatus
from leafexplain.output import warn


class NoInput(Exception):
    """Nothing piped, no text, no file: a usage error for the CLI to report."""


def load_catalog(records: Iterable[str] | None, no_bundled: bool, env: Environment) -> Any:
    """The records, from the index (built first if the record files changed); problems to stderr."""
    from leafexplain.index import open_catalog
    from leafexplain.progress import progress_bar

    warned: list[str] = []

    def warn_once(message: str) -> None:
        if message not in warned:
            warned.append(message)
            warn(env, message)

    with progress_bar(env, "indexing records") as progress:
        catalog = open_catalog(tuple(records or ()), bundled=not no_bundled, progress=progress, warn=warn_once)
    if catalog.problems:
        from leafexplain.output import warn_problems

        warn_problems(env, catalog.problems)
    return catalog


def input_chunks(text: Iterable[str] | None, file: str | None, env: Environment) -> Iterable[bytes]:
    """The input in pieces, read once: arguments, a file, or stdin when it is not a terminal.

    Raises InputError for a file that cannot be opened and NoInput when there is nothing to read.
    """
    from leafexplain.stream import read_chunks

    if text:
        return [" ".join(text).encode("utf-8", "surrogateescape")]
    if file:
        from leafexplain.sources import open_input

        return read_chunks(open_input(file))
    if not env.stdin_isatty:
        return read_chunks(sys.stdin.buffer)
    raise NoInput("no input: pipe a failing run into leafexplain, pass the text, or use --file")


def run_explain(
    env: Environment,
    *,
    text: Iterable[str] | None = None,
    file: str | None = None,
    fmt: str = "auto",
    color: str = "auto",
    width: int | None = None,
    threshold: float | None = None,
    show_all: bool = False,
    full: bool = False,
    records: Iterable[str] | None = None,
    no_bundled: bool = False,
    no_source: bool = False,
    root: str | Path | None = None,
) -> int:
    """Find every panic and traceback in the input and explain each one; the exit code."""
    from leafexplain.bounded import MAX_EVENTS, explain_bounded
    from leafexplain.match import Matcher
    from leafexplain.sources import InputError

    root_path = Path(root) if root is not None else None
    if root_path is not None and not no_source and not root_path.is_dir():
        warn(env, f"--root {root}: not a folder")
        return ExitStatus.USAGE_ERROR
    try:
        chunks = input_chunks(text, file, env)
    except InputError as exc:
        warn(env, str(exc))
        return ExitStatus.USAGE_ERROR
    report, dropped = explain_bounded(chunks, Matcher(load_catalog(records, no_bundled, env)), threshold)
    if dropped:
        warn(env, f"{dropped} more errors were not explained (only the first {MAX_EVENTS} distinct ones are kept)")
    if not report.matches:
        warn(env, "no Rust panic or Python traceback found in the input")
        if fmt == "json":
            from leafexplain.output import write_json
            from leafexplain.render.json_out import explain_document

            write_json(explain_document((), report.threshold), env)
        return ExitStatus.NOTHING_MATCHED
    sources = None
    if not no_source:  # your code and the library's, from this machine: a few stats and small reads
        from leafexplain.localsource import LocalPaths, find_sources

        sources = find_sources(report.matches, LocalPaths.from_process(root_path))
    if fmt == "json":
        from leafexplain.output import write_json
        from leafexplain.render.json_out import explain_document

        write_json(explain_document(report.matches, report.threshold, sources), env)
    else:
        from leafexplain.output import write_views
        from leafexplain.render.document import event_views

        views = event_views(report.matches, full=full, show_all=show_all, sources=sources)
        write_views(views, fmt, env, color, width)  # type: ignore[arg-type]
    return report.exit_status
