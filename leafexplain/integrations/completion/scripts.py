"""Each shell's completion script, written from the command tree when asked; the file name each is installed as."""

from __future__ import annotations

SCRIPT_NAMES = {
    "bash": "leafexplain.bash",
    "zsh": "_leafexplain",
    "fish": "leafexplain.fish",
    "powershell": "leafexplain.ps1",
}


def script(shell: str) -> str:
    """The completion script for `shell` (bash, zsh, fish or powershell)."""
    from leafexplain.integrations.completion.tree import command_tree

    if shell == "bash":
        from leafexplain.integrations.completion.bash import bash_script as write
    elif shell == "zsh":
        from leafexplain.integrations.completion.zsh import zsh_script as write
    elif shell == "fish":
        from leafexplain.integrations.completion.fish import fish_script as write
    else:
        from leafexplain.integrations.completion.powershell import powershell_script as write
    return write(command_tree())
