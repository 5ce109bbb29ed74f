"""`leafexplain completion show|install`: a shell's completion script, printed or put where the shell looks for it."""

from __future__ import annotations

from typing import Annotated, Optional

import click
import typer

from leafexplain.cli.options import argument, declared, option
from leafexplain.env import Environment
from leafexplain.exitcodes import ExitStatus
from leafexplain.integrations.completion.install import Shell, detect_shell, install_completion
from leafexplain.integrations.completion.scripts import script
from leafexplain.render import emit, warn

completion_app = typer.Typer(
    **declared("completion"),
    no_args_is_help=True,
    add_completion=False,
)


def _env() -> Environment:
    return click.get_current_context().obj


def _fail(message: str, status: int) -> typer.Exit:
    warn(_env(), message)
    return typer.Exit(status)


@completion_app.command(
    **declared("completion", "show"), epilog="Example: leafexplain completion show zsh > ~/.zfunc/_leafexplain"
)
def show_script(shell: Annotated[Shell, argument("completion", "show", name="shell")]) -> None:  # type: ignore[valid-type]
    # `leafexplain completion show SHELL` is answered without typer (cli/__init__.py); this is its --help and errors.
    emit(_env(), script(shell.value))


@completion_app.command(
    **declared("completion", "install"),
    epilog="Examples: leafexplain completion install  ·  leafexplain completion install fish",
)
def install_script(
    shell: Annotated[Optional[Shell], argument("completion", "install", name="shell")] = None,  # type: ignore[valid-type]
    force: Annotated[bool, option("completion", "install", dest="force")] = False,
) -> None:
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
    except FileExistsError as exc:
        raise _fail(f"{exc.filename}: {exc.strerror}", ExitStatus.USAGE_ERROR) from None
    except OSError as exc:
        raise _fail(f"could not install {chosen.value} completion: {exc}", ExitStatus.USAGE_ERROR) from None
    for note in installed.notes:
        warn(env, note)
