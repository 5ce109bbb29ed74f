"""`cargo leafexplain test|run|build ...`: the cargo-leafexplain console script, `leafexplain run -- cargo ...`.

cargo runs `cargo-NAME` from PATH for `cargo NAME ...`, with NAME as its first argument (dropped
here) and the cargo binary in $CARGO. Everything else is `leafexplain run`'s: cargo's output passed
through, its errors explained on stderr, cargo's exit code kept (101 for a failing test), and, when
our stdout is a terminal, cargo told to keep its colour (CARGO_TERM_COLOR=always, unless you set it
or NO_COLOR: intake/process.child_environment). leafexplain's own options come before the cargo
command: `cargo leafexplain --format jsonl test`.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: the everyday path does without it
if TYPE_CHECKING:
    from leafexplain.env import Environment

SUBCOMMAND = "leafexplain"
USAGE = """Usage: cargo leafexplain [OPTIONS] CARGO-COMMAND [ARGS]...

  Run `cargo CARGO-COMMAND [ARGS]...`, pass its output through, then explain its panics and
  compile errors (on stderr); exit with cargo's code.

  OPTIONS are `leafexplain run`'s (`leafexplain run --help`), before the cargo command.

Examples: cargo leafexplain test  ·  cargo leafexplain --format concise build --release
"""


def run_arguments(args: list[str], cargo: str) -> list[str] | None:
    """`leafexplain`'s arguments for `cargo-leafexplain ARGS`: `run [OPTIONS] -- CARGO COMMAND ...`; None when
    no cargo command is given (or help is asked for)."""
    from leafexplain.cli.router import TAKES_VALUE

    if args[:1] == [SUBCOMMAND]:
        args = args[1:]  # cargo passes the subcommand's name first
    i = 0
    while i < len(args) and args[i].startswith("-"):
        if args[i] in ("--help", "-h"):
            return None
        i += 2 if args[i] in TAKES_VALUE else 1
    if i >= len(args):
        return None
    return ["run", *args[:i], "--", cargo, *args[i:]]


def main(argv: list[str] | None = None, env: Environment | None = None) -> int:
    """`cargo-leafexplain ARGS` (in-process with `env`, as `cli.main`); the exit code: cargo's, when it ran."""
    import os

    from leafexplain.cli import main as leafexplain_main

    args = sys.argv[1:] if argv is None else list(argv)
    environ = os.environ if env is None else env.environ
    given = run_arguments(args, environ.get("CARGO") or "cargo")
    if given is None:  # help asked for (0), or no cargo command given (2, a usage error)
        (sys.stdout if env is None else env.stdout).write(USAGE)
        return 0 if {"--help", "-h"} & set(args) else 2
    return leafexplain_main(given, env)


def console() -> None:
    """The console script's entry: `leafexplain`'s own (cli.console: the output flushed, no teardown), given
    `run`'s arguments."""
    import os

    from leafexplain.cli import console as leafexplain_console

    given = run_arguments(sys.argv[1:], os.environ.get("CARGO") or "cargo")
    if given is None:
        raise SystemExit(main())  # the usage, and its code
    sys.argv[1:] = given
    leafexplain_console()
