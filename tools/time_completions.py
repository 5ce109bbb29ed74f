#!/usr/bin/env python3
"""Time one TAB of the completion scripts in bash, zsh and fish against `python -c pass`.

Usage: python tools/time_completions.py [--values 100000] [--tabs 20]

The scripts timed are the ones `leafexplain completion show SHELL` writes (what `completion
install` installs, and what the loaders in completions/ load at the first TAB); the time that
first load takes, `leafexplain completion show SHELL` itself, is printed too.

The record lists (ids, slugs, repos, tags) get VALUES made-up lines each, in a temporary
XDG_CACHE_HOME. bash is timed in-process (EPOCHREALTIME around the completion function, as a
TAB runs it in the user's shell); zsh as real TABs typed into an interactive zsh under zpty,
EPOCHREALTIME around the completion widget (the candidate list is not drawn: with 1000 of them
zsh asks before listing them anyway); fish with `complete -C`, as the time for TABS more TABs
than one, divided by TABS, so that starting fish is not counted. Prints milliseconds per TAB.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from leafexplain.integrations.completion.scripts import SCRIPT_NAMES, script  # noqa: E402  (this checkout's)

LINES = (
    "leafexplain sh",  # a subcommand: no list read
    "leafexplain show ",  # ids and slugs, no prefix: the first 1000
    "leafexplain show 7f",  # ids and slugs starting with 7f: both lists read through
    "leafexplain show zzz",  # nothing matches: both lists read through, the worst case
    "leafexplain list --repo owner5",  # repositories
)


def make_lists(cache: Path, count: int) -> None:
    folder = cache / "leafexplain" / "complete"
    folder.mkdir(parents=True, exist_ok=True)
    words = ["tensor", "shape", "grad", "leaf", "cuda", "device", "index", "range", "borrow", "overflow", "value"]
    ids = sorted(hashlib.sha1(str(i).encode()).hexdigest()[:16] for i in range(count))
    slugs = sorted("-".join(words[(i * 7 + k) % len(words)] for k in range(6)) + f"-{i}" for i in range(count))
    lists = {
        "ids": ids,
        "slugs": slugs,
        "repos": [f"owner{i % 997}/repo-{i}" for i in range(count)],
        "tags": [f"tag-{i}" for i in range(count)],
    }
    for kind, values in lists.items():
        (folder / f"{kind}.txt").write_text("".join(f"{v}\n" for v in values), encoding="utf-8")


def wall(cmd: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True, timeout=300)
    return time.perf_counter() - start


def python_pass(runs: int, *flags: str) -> float:
    return statistics.median(wall([sys.executable, *flags, "-c", "pass"], dict(os.environ)) for _ in range(runs)) * 1000


def write_scripts(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for shell, name in SCRIPT_NAMES.items():
        (folder / name).write_text(script(shell), encoding="utf-8", newline="\n")


def bash_tab(line: str, tabs: int, env: dict[str, str], scripts: Path) -> float:
    driver = f"""
source {scripts / SCRIPT_NAMES["bash"]}
line=$1
read -ra COMP_WORDS <<< "$line"
[[ $line == *" " ]] && COMP_WORDS+=("")
COMP_CWORD=$(( ${{#COMP_WORDS[@]}} - 1 )) COMP_LINE=$line COMP_POINT=${{#line}}
start=$EPOCHREALTIME
for (( n = 0; n < {tabs}; n++ )); do _leafexplain; done
end=$EPOCHREALTIME
echo $(( (${{end/./}} - ${{start/./}}) / {tabs} ))  # microseconds
"""
    done = subprocess.run(["bash", "-c", driver, "bash", line], env=env, capture_output=True, text=True, check=True)
    return int(done.stdout.strip()) / 1000


def per_tab(run_with: callable, tabs: int) -> float:  # type: ignore[valid-type]
    """(time with 1 + TABS TABs - time with 1 TAB) / TABS, the best of three."""
    return min((run_with(1 + tabs) - run_with(1)) / tabs for _ in range(3)) * 1000


ZSH_TIMER = r"""
zmodload zsh/zpty
zpty -b shell TERM=xterm zsh -f -i
zpty -w shell "PS1='' PROMPT='' fpath=(${(q)1} \$fpath); autoload -Uz compinit && compinit -u -D"
zpty -w shell 'zmodload zsh/datetime; quiet() { compstate[list]=""; compstate[insert]="" }'
zpty -w shell 'timed-tab() {
    local start=$EPOCHREALTIME
    comppostfuncs=(quiet)
    zle complete-word
    print -r -- "<T>$(( (EPOCHREALTIME - start) * 1000 ))</T>"
    BUFFER=""
}'
zpty -w shell 'zle -N timed-tab && bindkey "^I" timed-tab && print READY""-TO-GO'
zpty -r shell out '*READY-TO-GO*'
for (( n = 0; n < $3; n++ )); do
    zpty -w -n shell "$2"$'\t'
    zpty -r shell out '*</T>*'
    out=${out##*<T>}
    print -r -- ${out%%</T>*}
done
zpty -d shell
"""


def zsh_tab(line: str, tabs: int, env: dict[str, str], scripts: Path) -> float:
    done = subprocess.run(
        ["zsh", "-f", "-c", ZSH_TIMER, "zsh", str(scripts), line, str(tabs + 1)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    times = [float(t) for t in done.stdout.split()]
    return statistics.median(times[1:])  # the first TAB also loads the completion functions


def fish_tab(line: str, tabs: int, env: dict[str, str], scripts: Path) -> float:
    driver = f"source {scripts / SCRIPT_NAMES['fish']}; for i in (seq $argv[2]); complete -C $argv[1] >/dev/null; end"
    return per_tab(lambda n: wall(["fish", "-c", driver, line, str(n)], env), tabs)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--values", type=int, default=100_000, help="lines in each list (default 100000)")
    parser.add_argument("--tabs", type=int, default=20, help="TABs timed per line (default 20)")
    args = parser.parse_args(argv)
    shells = {"bash": bash_tab, "zsh": zsh_tab, "fish": fish_tab}
    shells = {name: timer for name, timer in shells.items() if shutil.which(name)}
    with tempfile.TemporaryDirectory() as tmp:
        cache = Path(tmp) / "cache"
        make_lists(cache, args.values)
        scripts = Path(tmp) / "scripts"
        write_scripts(scripts)
        env = {**os.environ, "XDG_CACHE_HOME": str(cache), "XDG_CONFIG_HOME": str(Path(tmp) / "config")}
        baseline = python_pass(20)
        isolated = python_pass(20, "-I")
        print(f"python -c pass: {baseline:.1f} ms; python -I -c pass: {isolated:.1f} ms ({sys.executable})")
        show = [sys.executable, "-m", "leafexplain", "completion", "show", "bash"]
        loading = statistics.median(wall(show, {**env, "PYTHONPATH": str(ROOT)}) for _ in range(10)) * 1000
        print(f"the loaders' first TAB, `leafexplain completion show bash`: {loading:.1f} ms")
        print(f"lists: {args.values} lines each; ms per TAB (x python -c pass)")
        print(f"{'line':<34}" + "".join(f"{name:>16}" for name in shells))
        for line in LINES:
            cells = []
            for timer in shells.values():
                ms = timer(line, args.tabs, env, scripts)
                cells.append(f"{ms:7.2f} ({ms / baseline:.2f}x)")
            print(f"{line!r:<34}" + "".join(f"{cell:>16}" for cell in cells))
    return 0


if __name__ == "__main__":
    sys.exit(main())
