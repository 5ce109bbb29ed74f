"""`leafexplain completion show|install`: the shell completion scripts shipped with leafexplain."""

from __future__ import annotations

from typing import Annotated, Optional

import click
import typer

from leafexplain.env import Environment
from leafexplain.exitcodes import ExitStatus
from leafexplain.integrations.shells import Shell, detect_shell, install_completion, script_path, script_text
from leafexplain.render import emit, warn

completion_app = typer.Typer(
    name="completion",
    help="Print or install shell completion for bash, zsh, fish or PowerShell.",
    no_args_is_help=True,
    add_completion=False,
)


def _env() -> Environment:
    return click.get_current_context().obj


def _fail(message: str, status: int) -> typer.Exit:
    warn(_env(), message)
    return typer.Exit(status)


def _missing_script(shell: Shell) -> typer.Exit:
    return _fail(
        f"no {shell.value} completion script at {script_path(shell)}: a broken install", ExitStatus.INTERNAL_ERROR
    )


ShellArg = Annotated[Shell, typer.Argument(metavar="SHELL", help="bash, zsh, fish or powershell.", show_default=False)]


@completion_app.command("show", epilog="Example: leafexplain completion show zsh > ~/.zfunc/_leafexplain")
def show_script(shell: ShellArg) -> None:
    """Print the completion script for SHELL."""
    try:
        text = script_text(shell)
    except FileNotFoundError:
        raise _missing_script(shell) from None
    emit(_env(), text)


@completion_app.command(
    "install", epilog="Examples: leafexplain completion install  ·  leafexplain completion install fish"
)
def install_script(
    shell: Annotated[
        Optional[Shell],
        typer.Argument(
            metavar="[SHELL]", help="bash, zsh, fish or powershell (default: from $SHELL).", show_default=False
        ),
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Replace another file already at that place.")] = False,
) -> None:
    """Install completion for SHELL (default: your shell) where that shell looks for it."""
    env = _env()
    chosen = shell or detect_shell(env.environ)
    if chosen is None:
        raise _fail(
            f"cannot tell your shell from $SHELL ({env.environ.get('SHELL') or 'not set'}); "
            "name it: leafexplain completion install bash|zsh|fish|powershell",
            ExitStatus.USAGE_ERROR,
        )
    try:
        installed = install_completion(chosen, env.environ, force=force)
    except FileNotFoundError:
        raise _missing_script(chosen) from None
    except FileExistsError as exc:
        raise _fail(f"{exc.filename}: {exc.strerror}", ExitStatus.USAGE_ERROR) from None
    except OSError as exc:
        raise _fail(f"could not install {chosen.value} completion: {exc}", ExitStatus.USAGE_ERROR) from None
    for note in installed.notes:
        warn(env, note)
