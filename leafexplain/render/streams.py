"""The Environment's two streams outside a format: text on stdout, flushed; every warning and error on stderr."""

from __future__ import annotations

from collections.abc import Iterable

from leafexplain.env import Environment
from leafexplain.models import Problem
from leafexplain.text import printable

MAX_PROBLEMS_SHOWN = 20


def emit(env: Environment, text: str) -> None:
    """Text on stdout, flushed: a reader of a pipe sees each piece as it is done."""
    env.stdout.write(text)
    env.stdout.flush()


def warn(env: Environment, message: str) -> None:
    """One line on stderr; file names, ids and arguments quoted in it cannot act on the terminal, and a secret
    in them (a path, a query, a command) is redacted unless redaction is off (`--no-redact`). Every warning
    and error leafexplain writes goes through here, `usage_error` or `internal_error`."""
    if env.redact:
        from leafexplain.redact import redact

        message = redact(message)
    env.stderr.write(f"leafexplain: {printable(message)}\n")
    env.stderr.flush()


def usage_error(env: Environment, text: str) -> None:
    """click's usage message, each line with the user's own text in it made printable (and redacted)."""
    from leafexplain.redact import redact

    env.stderr.write("".join(printable(redact(line)) + "\n" for line in text.splitlines()))
    env.stderr.flush()


def internal_error(env: Environment, exc: BaseException) -> None:
    """A bug of ours, in one line: what it was, and how to see the traceback. What the exception
    quotes of the input may hold a secret: it is redacted."""
    from leafexplain.redact import redact

    env.stderr.write(
        f"leafexplain: internal error: {printable(redact(f'{type(exc).__name__}: {exc}'))} "
        "(set LEAFEXPLAIN_DEBUG=1 for details)\n"
    )
    env.stderr.flush()


def warn_problems(env: Environment, problems: Iterable[Problem]) -> None:
    """The record files' problems, a line each, up to MAX_PROBLEMS_SHOWN, then how many more."""
    problems = list(problems)
    for problem in problems[:MAX_PROBLEMS_SHOWN]:
        warn(env, f"skipped record: {problem}")
    if len(problems) > MAX_PROBLEMS_SHOWN:
        warn(env, f"… and {len(problems) - MAX_PROBLEMS_SHOWN} more record problems (run `leafexplain validate`)")
