"""The command line: `main(argv, env)` routes once, runs the command under the one error guard, returns its code.

`--version`, `--help` and the everyday `leafexplain [OPTIONS] [TEXT]` are answered without
importing typer, click or rich (`router.py`); everything else goes to the typer app (`app.py`).
Pass an Environment to run it in-process (the tests do); without one it is this process's.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: the everyday path does without it
if TYPE_CHECKING:
    from leafexplain.cli.router import Route
    from leafexplain.env import Environment


def main(argv: list[str] | None = None, env: Environment | None = None) -> int:
    """Run `leafexplain ARGS...`; the exit code."""
    args = sys.argv[1:] if argv is None else list(argv)
    # Asked all the time (shell prompts, bug reports, a first look): answered before anything else is imported.
    if args in (["--version"], ["-V"]):
        from leafexplain.version import __version__

        return _answer(env, f"leafexplain {__version__}\n")
    if args in (["--help"], ["-h"]) and _fits_root_help(env):
        from leafexplain.cli.help import root_help

        return _answer(env, root_help())
    if len(args) == 3 and args[:2] == ["completion", "show"]:
        # What the completion loaders in completions/ ask for at a shell's first TAB: answered without typer.
        from leafexplain.cli.commands import SHELLS

        if args[2] in SHELLS:  # else click says what SHELL may be
            from leafexplain.integrations.completion.scripts import script

            return _answer(env, script(args[2]))
    from leafexplain.cli.guard import finish_output, run_guarded
    from leafexplain.cli.router import route
    from leafexplain.env import Environment

    if env is not None:
        return run_guarded(lambda: _dispatch(route(args), env), env)
    from leafexplain import regex
    from leafexplain.env import cache_dir

    env = Environment.from_process()
    regex.keep_codes_in(cache_dir(env.environ))  # this process's own runs only: see regex.py
    where = route(args)
    code = finish_output(env, run_guarded(lambda: _dispatch(where, env), env))
    regex.save_codes()
    return code


def console() -> None:
    """The console script's entry, and `python -m leafexplain`'s: `main`, its output flushed, then the process ends
    without the interpreter's teardown of the eighty-odd modules a run loaded (3 ms here, a tenth of an
    explanation). Nothing of ours needs that teardown: no atexit work, no thread left running, every file
    written whole (by rename) and closed. In-process callers (tests, the hook, the plugin) call `main`.

    The cyclic collector's first generation runs every 50,000 allocations, not every 700: a run's imports
    and index read make tens of thousands of long-lived objects and almost no cycles, and the default
    threshold walks them some twenty times before the answer is out (4.6M instructions of 131M, 3.5%).
    Reference counting frees everything else as before; a long `run` or a 100 MB log still collects."""
    import gc
    import os

    gc.set_threshold(50_000, 10, 10)
    code = main()
    for stream in (sys.stdout, sys.stderr):  # what the fast paths wrote, and anything else still buffered
        try:
            if stream is not None:
                stream.flush()
        except BrokenPipeError:  # a reader gone: quietly, as the guard ends it
            code = 141
        except OSError:  # a full disk, a read-only output: what was written is lost
            code = code or 74
    os._exit(code)


def _fits_root_help(env: Environment | None) -> bool:
    """The help composed in help.py is laid out for 80 columns, click's widest: a narrower terminal gets click's."""
    if env is not None:
        return env.width >= 80
    import shutil  # the fast path's own look at the terminal: env.py costs more than the help itself

    return shutil.get_terminal_size().columns >= 80


def _answer(env: Environment | None, text: str) -> int:
    if env is None:
        try:
            sys.stdout.write(text)  # flushed at exit (`console`), as Python does for any script
        except BrokenPipeError:
            return 141
        except OSError:  # a full disk, a read-only output
            return 74
        return 0
    env.stdout.write(text)
    env.stdout.flush()
    return 0


def _dispatch(where: Route, env: Environment) -> int:
    if where.kind == "complete":
        from leafexplain.integrations.completion.lists import KINDS, answer

        if where.args[1] in KINDS:  # else click's exit status for a usage error
            answer(where.args[1], (), bundled=True, env=env)
            return 0
    from leafexplain.cli.commands import COMMANDS
    from leafexplain.cli.config import default_map, settings

    alone = where.kind in ("fast", "explain")
    named = COMMANDS.get(where.args[0]) if where.args else None
    # The configuration files' values, what the command line does not give: read for the commands that take the
    # shared options (`new`, `import` and `completion` work whatever a file holds).
    configured = settings(env.environ) if alone or (named or {}).get("shared") else {}
    if where.kind == "fast" and where.options is not None:
        options = where.options
        if options["text"] or options.get("file") or not env.stdin_isatty:  # no input at all: click says so
            from leafexplain.cli.explain import Options, run_explain

            return run_explain(env, Options(**{**default_map(configured, "explain"), **options}))
    from leafexplain.cli.guard import invoke_click

    defaults = default_map(configured, "explain" if alone else None)
    return invoke_click(_click_command(alone=alone), where.args, env, default_map=defaults)


def _click_command(*, alone: bool) -> object:
    """The explain command alone (for `leafexplain [OPTIONS] [TEXT]`), or the whole app."""
    import typer

    from leafexplain.cli import app

    return app.explain_command() if alone else typer.main.get_command(app.app)
