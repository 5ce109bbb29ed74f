"""Where each shell looks for a completion script, and installing it there (`leafexplain completion install`)."""

from __future__ import annotations

import contextlib
import errno
import os
import shlex
import shutil
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from leafexplain.cli.commands import SHELLS
from leafexplain.env import config_home, data_home, home
from leafexplain.integrations.completion.scripts import script
from leafexplain.safeio import read_regular, write_whole

# Where bash-completion itself may live: without it, ~/.local/share/bash-completion is never read.
BASH_COMPLETION_SCRIPTS = (
    "/usr/share/bash-completion/bash_completion",
    "/etc/bash_completion",
    "/usr/local/share/bash-completion/bash_completion",
    "/opt/homebrew/etc/profile.d/bash_completion.sh",
    "/usr/local/etc/profile.d/bash_completion.sh",
)


MAX_STARTUP_FILE_BYTES = 1 << 20


Shell = Enum("Shell", {name: name for name in SHELLS}, type=str)  # the shells the table names


@dataclass(frozen=True)
class Installed:
    """What `install` did: the files it wrote, and what it tells the user (one line each)."""

    written: tuple[Path, ...]
    notes: tuple[str, ...]


def detect_shell(environ: Mapping[str, str] = os.environ) -> Shell | None:  # type: ignore[valid-type]
    """The user's shell from $SHELL; PowerShell on Windows, where $SHELL is not set."""
    name = Path(environ.get("SHELL", "")).name.lower()
    if name.endswith(".exe"):
        name = name[: -len(".exe")]
    if name in ("bash", "zsh", "fish"):
        return Shell(name)
    if name in ("pwsh", "powershell"):
        return Shell.powershell
    if not name and os.name == "nt":
        return Shell.powershell
    return None


def _powershell_profile(environ: Mapping[str, str]) -> Path:
    """The current user's profile: asked of PowerShell when it is here, else where it keeps it by default."""
    for exe in ("pwsh", "powershell"):
        found = shutil.which(exe, path=environ.get("PATH"))
        if not found:
            continue
        try:
            asked = subprocess.run(
                [found, "-NoProfile", "-NoLogo", "-NonInteractive", "-Command", "$PROFILE.CurrentUserCurrentHost"],
                capture_output=True,
                text=True,
                timeout=30,
                env=dict(environ),
            )
        except (OSError, subprocess.SubprocessError):
            continue
        answer = asked.stdout.strip()
        if asked.returncode == 0 and answer:
            return Path(answer)
    if os.name == "nt":
        return Path(home(environ)) / "Documents" / "PowerShell" / "Microsoft.PowerShell_profile.ps1"
    return Path(config_home(environ)) / "powershell" / "Microsoft.PowerShell_profile.ps1"


def _write(target: Path, text: str, force: bool) -> None:
    """Write a file whole. The same content already there is left as it is; anything else there (another file, a
    symlink) is only replaced with `force`, and a symlink itself is replaced, never written through."""
    target.parent.mkdir(parents=True, exist_ok=True)
    data = text.encode("utf-8")
    if not os.path.islink(target):
        with contextlib.suppress(OSError):
            if read_regular(target, len(data)) == data:
                return
    try:
        write_whole(target, data, replace=force)
    except FileExistsError:
        raise FileExistsError(errno.EEXIST, "a file is there already (--force replaces it)", str(target)) from None


def _read_text(path: Path) -> str:
    """A small text file of the user's (a shell's startup file), or "" when there is none (a FIFO, a folder)."""
    try:
        return read_regular(path, MAX_STARTUP_FILE_BYTES).decode("utf-8-sig", "replace")
    except OSError:
        return ""


def _install_bash(text: str, environ: Mapping[str, str], force: bool) -> Installed:
    user_dir = environ.get("BASH_COMPLETION_USER_DIR")
    base = Path(user_dir) if user_dir else Path(data_home(environ)) / "bash-completion"
    target = base / "completions" / "leafexplain"
    _write(target, text, force)
    # One true thing: either bash-completion is here and loads it, or the user must source it.
    if any(Path(p).is_file() for p in BASH_COMPLETION_SCRIPTS):
        loaded = "bash-completion loads it in new shells"
    else:
        source = f"source {shlex.quote(str(target))}"  # a command to copy: quoted for the shell
        loaded = f"bash-completion is not installed here: add `{source}` to ~/.bashrc to load it"
    return Installed((target,), (f"installed bash completion: {target}", loaded))


def _install_zsh(text: str, environ: Mapping[str, str], force: bool) -> Installed:
    target = Path(home(environ)) / ".zfunc" / "_leafexplain"
    _write(target, text, force)
    notes = [f"installed zsh completion: {target}"]
    zshrc = Path(environ.get("ZDOTDIR") or home(environ)) / ".zshrc"
    if ".zfunc" in _read_text(zshrc):
        notes.append("it is loaded in new shells")
    else:
        notes.append(f"add to {zshrc}, before compinit: fpath=(~/.zfunc $fpath); autoload -Uz compinit && compinit")
    return Installed((target,), tuple(notes))


def _install_fish(text: str, environ: Mapping[str, str], force: bool) -> Installed:
    target = Path(config_home(environ)) / "fish" / "completions" / "leafexplain.fish"
    _write(target, text, force)
    return Installed((target,), (f"installed fish completion: {target}", "fish loads it in new shells"))


def _install_powershell(text: str, environ: Mapping[str, str], force: bool) -> Installed:
    profile = _powershell_profile(environ)
    # Beside the profile rather than inside the package: it stays valid across upgrades and venvs.
    target = profile.parent / "leafexplain-completion.ps1"
    _write(target, text, force)
    line = f". '{str(target).replace(chr(39), chr(39) * 2)}'"
    existing = _read_text(profile)
    notes = [f"installed PowerShell completion: {target}"]
    if line in existing.splitlines():
        notes.append(f"{profile} loads it already")
        return Installed((target,), tuple(notes))
    if os.path.lexists(profile) and not (profile.is_file() and not profile.is_symlink()):
        # A symlinked profile (dotfiles) or anything but a plain file: never written through, the user adds it.
        notes.append(f"add `{line}` to {profile} (not changed: it is not a plain file)")
        return Installed((target,), tuple(notes))
    separator = "" if not existing or existing.endswith("\n") else "\n"
    _write(profile, f"{existing}{separator}{line}\n", force=True)  # the profile with one line added, whole
    notes.append(f"added `{line}` to {profile}: new PowerShell sessions load it")
    return Installed((target, profile), tuple(notes))


INSTALLERS = {
    Shell.bash: _install_bash,
    Shell.zsh: _install_zsh,
    Shell.fish: _install_fish,
    Shell.powershell: _install_powershell,
}


def install_completion(shell: Shell, environ: Mapping[str, str] = os.environ, *, force: bool = False) -> Installed:
    """Install the script where `shell` looks for it; FileExistsError when another file is there and not `force`."""
    return INSTALLERS[shell](script(shell.value), environ, force)
