"""The console script: `--version` and the everyday explain answered without loading the full CLI."""

from __future__ import annotations

import sys


def main() -> None:
    if sys.argv[1:] in (["--version"], ["-V"]):
        # Every shell prompt integration and bug report asks this; it needs nothing imported.
        from leafexplain import __version__

        sys.stdout.write(f"leafexplain {__version__}\n")
        return
    if sys.argv[1:] in (["--help"], ["-h"]) and _wide_enough():
        from leafexplain._cli_table import ROOT_HELP

        sys.stdout.write(ROOT_HELP)
        return
    from leafexplain.fastpath import parse_explain

    options = parse_explain(sys.argv[1:])
    if options is not None:
        env = _fast_environment(options)
        if env is not None:
            from leafexplain.explaining import run_explain
            from leafexplain.guard import run_guarded

            sys.exit(run_guarded(lambda: run_explain(env, **options)))
    from leafexplain.cli import main as cli_main

    cli_main()


def _wide_enough() -> bool:
    """The help kept in _cli_table.py is laid out for 80 columns, click's widest."""
    import shutil

    return shutil.get_terminal_size().columns >= 80


def _fast_environment(options: dict) -> object | None:
    """The terminal facts, unless the full CLI must answer (no input at all on a terminal)."""
    from leafexplain.env import Environment

    env = Environment.from_process()
    if not options.get("text") and not options.get("file") and env.stdin_isatty:
        return None
    return env
