"""The console script: answers `--version` before importing the CLI, then runs the CLI."""

from __future__ import annotations

import sys


def main() -> None:
    if sys.argv[1:] in (["--version"], ["-V"]):
        # Every shell prompt integration and bug report asks this; it needs nothing imported.
        from leafexplain import __version__

        sys.stdout.write(f"leafexplain {__version__}\n")
        return
    from leafexplain.cli import main as cli_main

    cli_main()
