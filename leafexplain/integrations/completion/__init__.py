"""Shell completion, all of it: the scripts written from the command table, their installer, and the record lists.

It lives here, in integrations/, because completion is a way in from other programs (the shells),
as the excepthook and the pytest plugin are; and in one package because the scripts, the
installer and the lists they read change together. Nothing is generated ahead of time: `script`
writes a shell's script from `cli/commands.py` when asked (`leafexplain completion show SHELL`,
answered without typer), so a script always matches the leafexplain that wrote it. The files in
the top-level `completions/` folder are small hand-written loaders that ask for it, for packagers
who install files rather than run a command.

- `scripts.py`: `script(shell)`, the script for a shell.
- `tree.py`: the commands, their options and what each value is, read from the table.
- `bash.py`, `zsh.py`, `fish.py`, `powershell.py`: each shell's script from the tree.
- `install.py`: where each shell looks for a script, and putting it there (`completion install`).
- `lists.py`: record ids, slugs, repositories and tags, one a line (`leafexplain __complete KIND`),
  and the plain lists in the cache that later TABs read without starting Python.
- `command.py`: `leafexplain completion show|install`.
"""
