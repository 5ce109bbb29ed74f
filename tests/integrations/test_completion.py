"""Shell completion: the scripts leafexplain writes from its command table, and the loaders in completions/, driven by
real bash, zsh and fish."""

from __future__ import annotations

import functools
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

import pytest

from leafexplain.integrations.completion.scripts import SCRIPT_NAMES as SCRIPTS
from leafexplain.integrations.completion.scripts import script
from leafexplain.integrations.completion.tree import command_tree
from tests.conftest import ROOT, SEED_ID, Isolated, run_in_process

LOADERS = ROOT / "completions"  # the hand-written files that ask leafexplain for its script
# Made-up values: candidates that show them came from the cache's lists, not from the records.
LISTS = {
    "ids": ["aaaa000000000001", "aaaa000000000002", "bbbb000000000003"],
    "slugs": ["alpha-error-slug", "beta-error-slug"],
    "repos": ["acme/gadgets", "acme/widgets", "other/thing"],
    "tags": ["autodiff", "autograd", "shapes"],
}
# `rich`, the old name of terminal, is accepted by --format but not offered.
FORMATS = ["auto", "terminal", "plain", "json", "markdown", "github", "sarif", "concise", "jsonl"]


@functools.cache
def written() -> Path:
    """A folder with each shell's script as `leafexplain completion show SHELL` writes it, named as installed."""
    folder = Path(tempfile.mkdtemp(prefix="leafexplain-completions-"))
    for shell, name in SCRIPTS.items():
        (folder / name).write_text(script(shell), encoding="utf-8", newline="\n")
    return folder


def need(shell: str) -> None:
    """CI installs bash, zsh and fish (.ci/run): there, a missing shell is a failure, not a skip."""
    if shutil.which(shell):
        return
    if os.environ.get("CI"):
        pytest.fail(f"{shell} is not installed; .ci/run should have installed it")
    pytest.skip(f"{shell} is not installed")


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    """A user with the record lists in the cache, no configuration, a folder with one file."""
    environ = Isolated(tmp_path, HOME=str(tmp_path / "home"), XDG_CONFIG_HOME=str(tmp_path / "config")).environ
    # The loaders run `leafexplain` from PATH: this interpreter's, not whichever install comes first there.
    environ["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{environ.get('PATH', '')}"
    lists = Path(environ["XDG_CACHE_HOME"]) / "leafexplain" / "complete"
    lists.mkdir(parents=True)
    for kind, values in LISTS.items():
        (lists / f"{kind}.txt").write_text("".join(f"{v}\n" for v in values), encoding="utf-8")
    (tmp_path / "home").mkdir()
    (tmp_path / "work").mkdir()
    (tmp_path / "work" / "build.log").write_text("log\n", encoding="utf-8")
    (tmp_path / "work" / "records-dir").mkdir()
    return environ


@pytest.fixture
def bare_env(env: dict[str, str]) -> dict[str, str]:
    """No lists in the cache yet: the scripts ask `leafexplain __complete`."""
    shutil.rmtree(Path(env["XDG_CACHE_HOME"]) / "leafexplain")
    return env


def _work(env: dict[str, str]) -> Path:
    return Path(env["XDG_CACHE_HOME"]).parent / "work"


# --- the command tree the scripts are written from -----------------------------------------------


def test_completions_folder_holds_one_loader_a_shell() -> None:
    assert sorted(p.name for p in LOADERS.iterdir()) == sorted(SCRIPTS.values())
    for name in SCRIPTS.values():
        assert "leafexplain completion show" in (LOADERS / name).read_text(encoding="utf-8")


def test_command_tree_has_visible_commands_their_choices_files_and_record_values() -> None:
    tree = command_tree()
    commands = {c.path: c for c in tree.walk()}
    assert {"show", "list", "explain", "completion show", "completion install"} <= set(commands)
    assert "__complete" not in commands  # hidden
    options = {flag: o for o in commands["show"].options for flag in o.flags}
    assert options["--format"].values.kind == "choice" and list(options["-F"].values.words) == FORMATS
    assert options["--records"].values.kind == "file"
    assert options["--no-bundled"].values is None
    assert commands["show"].arguments[0].values.words == ("ids", "slugs")
    list_options = {flag: o.values for o in commands["list"].options for flag in o.flags}
    assert list_options["--repo"].words == ("repos",) and list_options["--tag"].words == ("tags",)
    explain_options = {flag: o.values for o in commands["explain"].options for flag in o.flags}
    assert explain_options["--file"].kind == "file"
    assert commands["completion show"].arguments[0].values.words == ("bash", "zsh", "fish", "powershell")
    # Bare `leafexplain` takes explain's options too: `leafexplain --format json`.
    assert {"--format", "--file", "--version"} <= {f for o in tree.options for f in o.flags}


# --- bash ------------------------------------------------------------------------------------------

BASH_DRIVER = r"""
source "$1"
shift
COMP_WORDS=("$@")
COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
COMP_LINE=$LINE
COMP_POINT=${#COMP_LINE}
spec=$(complete -p leafexplain)
function=${spec#*-F }
function=${function%% *}
"$function" leafexplain "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
printf '%s\n' "${COMPREPLY[@]}"
"""


def bash_words(line: str) -> list[str]:
    """COMP_WORDS as bash makes them: split at blanks, and at '=' (it is in COMP_WORDBREAKS)."""
    words: list[str] = []
    for token in line.split():
        words += [part for part in re.split(r"(=)", token) if part]
    if line.endswith(" "):
        words.append("")
    return words


def bash_complete(line: str, env: dict[str, str], source: Path | None = None) -> list[str]:
    source = source or written() / SCRIPTS["bash"]
    done = subprocess.run(
        ["bash", "--norc", "--noprofile", "-c", BASH_DRIVER, "bash", str(source), *bash_words(line)],
        env={**env, "LINE": line},
        cwd=_work(env),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return [c for c in done.stdout.splitlines() if c]


def test_bash_completes_commands_options_choices_and_files(env: dict[str, str]) -> None:
    need("bash")
    assert bash_complete("leafexplain sh", env) == ["show"]
    assert {"show", "list", "explain", "completion"} <= set(bash_complete("leafexplain ", env))
    assert "__complete" not in bash_complete("leafexplain _", env)
    assert bash_complete("leafexplain show --form", env) == ["--format"]
    assert bash_complete("leafexplain show --format ", env) == FORMATS
    assert bash_complete("leafexplain list --format=j", env) == ["json", "jsonl"]
    assert bash_complete("leafexplain --color ", env) == ["auto", "always", "never"]
    assert bash_complete("leafexplain validate --format ", env) == ["text", "json"]
    assert bash_complete("leafexplain --file bu", env) == ["build.log"]
    assert bash_complete("leafexplain verify --source rec", env) == ["records-dir"]
    assert bash_complete("leafexplain completion show ", env) == ["bash", "zsh", "fish", "powershell"]


def test_bash_completes_record_values_from_the_cache_lists(env: dict[str, str]) -> None:
    need("bash")
    assert bash_complete("leafexplain show ", env) == LISTS["ids"] + LISTS["slugs"]
    assert bash_complete("leafexplain show aaaa", env) == LISTS["ids"][:2]
    assert bash_complete("leafexplain show be", env) == ["beta-error-slug"]
    assert bash_complete("leafexplain list --repo ", env) == LISTS["repos"]
    assert bash_complete("leafexplain list --repo=acme/w", env) == ["acme/widgets"]
    assert bash_complete("leafexplain list --tag auto", env) == ["autodiff", "autograd"]
    # Options before the command go to it: `--records DIR show ID`.
    assert bash_complete("leafexplain --records x show bbbb", env) == ["bbbb000000000003"]


def test_bash_caps_the_candidates_at_1000(env: dict[str, str]) -> None:
    need("bash")
    ids = Path(env["XDG_CACHE_HOME"]) / "leafexplain" / "complete" / "ids.txt"
    ids.write_text("".join(f"{n:016x}\n" for n in range(5000)), encoding="utf-8")
    (ids.parent / "slugs.txt").write_text("", encoding="utf-8")
    candidates = bash_complete("leafexplain show ", env)
    assert len(candidates) == 1000 and candidates[0] == f"{0:016x}"
    assert bash_complete("leafexplain show 000000000000012", env) == [f"{n:016x}" for n in range(0x120, 0x130)]


def test_bash_falls_back_to_leafexplain_without_the_lists(bare_env: dict[str, str]) -> None:
    need("bash")
    assert bash_complete("leafexplain show 7455", bare_env) == [SEED_ID]
    assert bash_complete("leafexplain list --repo tracel", bare_env) == ["tracel-ai/burn", "tracel-ai/cubecl"]
    # Asking leafexplain wrote the lists for the next TAB.
    lists = Path(bare_env["XDG_CACHE_HOME"]) / "leafexplain" / "complete"
    assert SEED_ID in (lists / "ids.txt").read_text(encoding="utf-8").split()
    # A list present is used, a missing one is asked for.
    (lists / "slugs.txt").unlink()
    (lists / "ids.txt").write_text("cafe000000000001\n", encoding="utf-8")
    assert bash_complete("leafexplain show ca", bare_env) == [
        "cafe000000000001",
        *[s for s in run_in_process("__complete", "slugs", environ=bare_env).stdout.split() if s.startswith("ca")],
    ]


def test_bash_completes_the_command_that_run_starts(env: dict[str, str]) -> None:
    need("bash")
    tools = _work(env).parent / "bin"
    tools.mkdir()
    fake = tools / "zz-fake-tool"
    fake.write_text("#!/bin/sh\n", encoding="utf-8")
    fake.chmod(0o755)
    with_tool = {**env, "PATH": f"{tools}{os.pathsep}{env['PATH']}"}
    assert bash_complete("leafexplain run -- zz-fa", with_tool) == ["zz-fake-tool"]
    assert bash_complete("leafexplain run zz-fa", with_tool) == ["zz-fake-tool"]
    # After the command, its words are its own: file names here (no bash-completion loaded), no options of ours.
    assert bash_complete("leafexplain run -- zz-fake-tool bu", with_tool) == ["build.log"]
    assert bash_complete("leafexplain run zz-fake-tool --form", with_tool) == []


# --- zsh -------------------------------------------------------------------------------------------


def zsh_complete(lines: list[str], env: dict[str, str], folder: Path | None = None) -> dict[str, list[str]]:
    """Each line typed into an interactive zsh (zpty) with compinit and `folder` (the written scripts) in $fpath,
    then TAB."""
    done = subprocess.run(
        ["zsh", "-f", str(Path(__file__).parent / "complete.zsh"), str(folder or written()), *lines],
        env=env,
        cwd=_work(env),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return _blocks(done.stdout, lines)


def _blocks(output: str, lines: list[str]) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    current: list[str] = []
    for row in output.splitlines():
        if row.startswith("=== "):
            current = found.setdefault(row[4:], [])
        elif row:
            current.append(row.split("\t", 1)[0])
    assert set(found) == set(lines), output
    return found


def test_zsh_completes_commands_options_choices_and_record_values(env: dict[str, str]) -> None:
    need("zsh")
    lines = [
        "leafexplain sh",
        "leafexplain ",
        "leafexplain show --form",
        "leafexplain show --format ",
        "leafexplain list --format=j",
        "leafexplain show ",
        "leafexplain show aaaa",
        "leafexplain list --repo ",
        "leafexplain list --tag auto",
        "leafexplain --file bu",
        "leafexplain completion install ",
    ]
    got = zsh_complete(lines, env)
    assert got["leafexplain sh"] == ["show"]
    assert {"show", "list", "explain", "completion"} <= set(got["leafexplain "])
    assert "__complete" not in got["leafexplain "]
    assert got["leafexplain show --form"] == ["--format"]
    assert sorted(got["leafexplain show --format "]) == sorted(FORMATS)
    assert got["leafexplain list --format=j"] == ["json", "jsonl"]
    assert sorted(got["leafexplain show "]) == sorted(LISTS["ids"] + LISTS["slugs"])
    assert sorted(got["leafexplain show aaaa"]) == LISTS["ids"][:2]
    assert sorted(got["leafexplain list --repo "]) == LISTS["repos"]
    assert sorted(got["leafexplain list --tag auto"]) == ["autodiff", "autograd"]
    assert got["leafexplain --file bu"] == ["build.log"]
    assert sorted(got["leafexplain completion install "]) == ["bash", "fish", "powershell", "zsh"]


def test_zsh_falls_back_to_leafexplain_without_the_lists(bare_env: dict[str, str]) -> None:
    need("zsh")
    got = zsh_complete(["leafexplain show 7455", "leafexplain list --repo tracel"], bare_env)
    assert got["leafexplain show 7455"] == [SEED_ID]
    assert got["leafexplain list --repo tracel"] == ["tracel-ai/burn", "tracel-ai/cubecl"]


# --- fish ------------------------------------------------------------------------------------------


def fish_complete(lines: list[str], env: dict[str, str], source: Path | None = None, *, alone: bool = False):
    """`complete -C LINE` in fish, after sourcing the script (or, `alone`, fish finding it itself)."""
    loading = "" if alone else f"source {source or written() / SCRIPTS['fish']}; "
    script = loading + 'for line in $argv; echo "=== $line"; complete -C $line; end'
    done = subprocess.run(
        ["fish", "-c", script, *lines], env=env, cwd=_work(env), capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return _blocks(done.stdout, lines)


def test_fish_completes_commands_options_choices_and_record_values(env: dict[str, str]) -> None:
    need("fish")
    lines = [
        "leafexplain sh",
        "leafexplain ",
        "leafexplain show --form",
        "leafexplain show --format ",
        "leafexplain show -F ",
        "leafexplain show ",
        "leafexplain show aaaa",
        "leafexplain list --repo ",
        "leafexplain list --tag auto",
        "leafexplain --file bu",
        "leafexplain completion show ",
    ]
    got = fish_complete(lines, env)
    assert got["leafexplain sh"] == ["show"]
    assert {"show", "list", "explain", "completion"} <= set(got["leafexplain "])
    assert "__complete" not in got["leafexplain "]
    assert got["leafexplain show --form"] == ["--format"]
    assert sorted(got["leafexplain show --format "]) == sorted(got["leafexplain show -F "]) == sorted(FORMATS)
    assert sorted(got["leafexplain show "]) == sorted(LISTS["ids"] + LISTS["slugs"])
    assert sorted(got["leafexplain show aaaa"]) == LISTS["ids"][:2]
    assert sorted(got["leafexplain list --repo "]) == LISTS["repos"]
    assert sorted(got["leafexplain list --tag auto"]) == ["autodiff", "autograd"]
    assert got["leafexplain --file bu"] == ["build.log"]
    assert sorted(got["leafexplain completion show "]) == ["bash", "fish", "powershell", "zsh"]


def test_fish_falls_back_to_leafexplain_without_the_lists(bare_env: dict[str, str]) -> None:
    need("fish")
    got = fish_complete(["leafexplain show 7455", "leafexplain list --repo tracel"], bare_env)
    assert got["leafexplain show 7455"] == [SEED_ID]
    assert got["leafexplain list --repo tracel"] == ["tracel-ai/burn", "tracel-ai/cubecl"]


def test_without_the_lists_each_shell_asks_leafexplain_and_writes_nothing(bare_env: dict[str, str]) -> None:
    """A stand-in `leafexplain` that logs how it is called: the scripts ask it, and keep nothing."""
    stand_in = _work(bare_env).parent / "bin"
    stand_in.mkdir()
    log = _work(bare_env).parent / "calls.log"
    script = stand_in / "leafexplain"
    script.write_text(f'#!/bin/sh\necho "$*" >> {log}\necho "$2-one"\necho "$2-two"\n', encoding="utf-8")
    script.chmod(0o755)
    env = {**bare_env, "PATH": f"{stand_in}{os.pathsep}{bare_env['PATH']}"}
    line = "leafexplain show slugs-t"
    got = {}
    if shutil.which("bash"):
        got["bash"] = bash_complete(line, env)
    if shutil.which("zsh"):
        got["zsh"] = zsh_complete([line], env)[line]
    if shutil.which("fish"):
        got["fish"] = fish_complete([line], env)[line]
    assert got and all(candidates == ["slugs-two"] for candidates in got.values()), got
    assert log.read_text(encoding="utf-8").splitlines() == ["__complete ids", "__complete slugs"] * len(got)
    assert not (Path(env["XDG_CACHE_HOME"]) / "leafexplain").exists()


def test_the_lists_completion_writes_are_what_the_scripts_read(bare_env: dict[str, str]) -> None:
    need("bash")
    assert run_in_process("list", "--format", "json", environ=bare_env).returncode == 0  # builds the index
    lists = Path(bare_env["XDG_CACHE_HOME"]) / "leafexplain" / "complete"
    assert not lists.exists(), "opening the records writes no completion list"
    assert run_in_process("__complete", "tags", environ=bare_env).returncode == 0  # a TAB asking: all four written
    for kind in LISTS:
        assert (lists / f"{kind}.txt").read_text(encoding="utf-8") == run_in_process(
            "__complete", kind, environ=bare_env
        ).stdout
    assert bash_complete("leafexplain show 7455", bare_env) == [SEED_ID]
    assert bash_complete("leafexplain list --repo tracel", bare_env) == ["tracel-ai/burn", "tracel-ai/cubecl"]


# --- the loaders in completions/ ------------------------------------------------------------------


def test_the_bash_loader_loads_the_script_at_the_first_tab(env: dict[str, str]) -> None:
    need("bash")
    loader = LOADERS / SCRIPTS["bash"]
    assert bash_complete("leafexplain sh", env, source=loader) == ["show"]
    assert bash_complete("leafexplain show aaaa", env, source=loader) == LISTS["ids"][:2]


def test_the_zsh_loader_in_fpath_loads_the_script_at_the_first_tab(env: dict[str, str]) -> None:
    need("zsh")
    got = zsh_complete(["leafexplain sh", "leafexplain show --format "], env, folder=LOADERS)
    assert got["leafexplain sh"] == ["show"] and sorted(got["leafexplain show --format "]) == sorted(FORMATS)


def test_the_fish_loader_loads_the_script(env: dict[str, str]) -> None:
    need("fish")
    got = fish_complete(["leafexplain sh", "leafexplain list --repo acme/g"], env, source=LOADERS / SCRIPTS["fish"])
    assert got == {"leafexplain sh": ["show"], "leafexplain list --repo acme/g": ["acme/gadgets"]}


@pytest.mark.parametrize("args", [["completion", "show", "bash"], ["__complete", "repos"]])
def test_what_a_tab_asks_is_answered_without_typer(args: list[str], bare_env: dict[str, str]) -> None:
    """The loaders' first TAB (`completion show`) and a missing list (`__complete`): no typer, no click."""
    probe = f"import sys; from leafexplain.cli import main; code = main({args!r}); sys.stdout.flush(); "
    probe += "print(code, sorted({'typer', 'click'} & set(sys.modules)), file=sys.stderr)"
    done = subprocess.run([sys.executable, "-c", probe], env=bare_env, capture_output=True, text=True, timeout=60)
    assert done.stderr.strip() == "0 []", done.stderr
    if args[0] == "completion":
        assert done.stdout == script("bash")
    else:  # every repository, sorted, once
        repos = done.stdout.splitlines()
        assert "tracel-ai/burn" in repos and repos == sorted(set(repos))


# --- PowerShell ------------------------------------------------------------------------------------


def test_powershell_script_registers_a_native_completer_with_the_whole_tree() -> None:
    # pwsh is not in Debian's archive, so it is not installed here: this checks the script's text;
    # test_powershell_completes_in_pwsh below runs it where pwsh is installed.
    text = script("powershell")
    assert "Register-ArgumentCompleter -Native -CommandName 'leafexplain'" in text
    tree = command_tree()
    for command in tree.walk():
        for sub in command.subcommands:
            assert f"@('{sub.name}', " in text
        for option in command.options:
            for flag in option.flags:
                assert f"@('{flag}', " in text
    assert (
        "$optionValues.Add('show --format', 'choice auto terminal plain json markdown github sarif concise jsonl')"
        in text
    )
    assert "$optionValues.Add('list --repo', 'list repos')" in text
    assert "@('list ids slugs', $false)" in text  # show ID|SLUG
    assert "'leafexplain') 'complete'" in text and "& leafexplain __complete $kind" in text
    assert "__complete" not in re.findall(r"@\('([^']*)', ", text)
    assert _unbalanced_powershell_brackets(text) is None


def _unbalanced_powershell_brackets(text: str) -> str | None:
    """Where brackets outside strings and comments stop pairing up (pwsh is not here to parse it)."""
    pairs = {")": "(", "}": "{", "]": "["}
    stack: list[tuple[str, int]] = []
    i = 0
    while i < len(text):
        char = text[i]
        if char == "#":
            i = text.find("\n", i) % (len(text) + 1)
        elif char in "'\"":
            i += 1
            while i < len(text) and not (text[i] == char and text[i + 1 : i + 2] != char and text[i - 1] != "`"):
                i += 2 if text[i : i + 2] == char * 2 else 1
        elif char in "({[":
            stack.append((char, i))
        elif char in pairs and (not stack or stack.pop()[0] != pairs[char]):
            return f"unexpected {char} at line {text.count(chr(10), 0, i) + 1}"
        i += 1
    return f"unclosed {stack[-1][0]} at line {text.count(chr(10), 0, stack[-1][1]) + 1}" if stack else None


def test_powershell_completes_in_pwsh(env: dict[str, str]) -> None:
    pwsh = shutil.which("pwsh")
    if not pwsh:
        pytest.skip("pwsh is not installed (not packaged in Debian)")
    script_path = written() / SCRIPTS["powershell"]
    command = (
        f". '{script_path}'; foreach ($line in 'leafexplain sh', 'leafexplain show --format ', "
        "'leafexplain list --repo ') "
        "{ '=== ' + $line; (TabExpansion2 $line $line.Length).CompletionMatches.CompletionText }"
    )
    done = subprocess.run(
        [pwsh, "-NoProfile", "-NonInteractive", "-Command", command], env=env, capture_output=True, text=True
    )
    got = _blocks(done.stdout, ["leafexplain sh", "leafexplain show --format ", "leafexplain list --repo "])
    assert got["leafexplain sh"] == ["show"]
    assert got["leafexplain show --format "] == FORMATS
    assert got["leafexplain list --repo "] == LISTS["repos"]


# --- leafexplain completion show / install --------------------------------------------------------


def test_completion_show_prints_each_script(env: dict[str, str]) -> None:
    for shell in SCRIPTS:
        done = run_in_process("completion", "show", shell, environ=env)
        assert done.returncode == 0, done.stderr
        assert done.stdout == script(shell)
    bad = run_in_process("completion", "show", "tcsh", environ=env)
    assert bad.returncode == 2 and bad.stdout == "" and "tcsh" in bad.stderr


def test_completion_install_bash_then_bash_completes_from_there(env: dict[str, str]) -> None:
    need("bash")
    done = run_in_process("completion", "install", environ={**env, "SHELL": "/bin/bash"})
    assert done.returncode == 0, done.stderr
    target = Path(env["XDG_DATA_HOME"]) / "bash-completion" / "completions" / "leafexplain"
    assert target.read_text(encoding="utf-8") == script("bash")
    assert done.stdout == "" and f"leafexplain: installed bash completion: {target}" in done.stderr
    assert bash_complete("leafexplain sh", env, source=target) == ["show"]


def test_completion_install_bash_says_one_true_thing_about_loading_it(
    env: dict[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from leafexplain.integrations.completion import install as shells

    bash = {**env, "SHELL": "/bin/bash"}
    target = Path(env["XDG_DATA_HOME"]) / "bash-completion" / "completions" / "leafexplain"
    monkeypatch.setattr(shells, "BASH_COMPLETION_SCRIPTS", (str(tmp_path / "no-bash-completion"),))
    without = run_in_process("completion", "install", environ=bash).stderr
    assert f"bash-completion is not installed here: add `source {target}` to ~/.bashrc" in without
    assert "loads it in new shells" not in without
    present = tmp_path / "bash_completion"
    present.write_text("# bash-completion\n")
    monkeypatch.setattr(shells, "BASH_COMPLETION_SCRIPTS", (str(present),))
    loaded = run_in_process("completion", "install", environ=bash).stderr
    assert "bash-completion loads it in new shells" in loaded and "not installed" not in loaded


def test_completion_install_zsh_says_how_to_load_it(env: dict[str, str]) -> None:
    done = run_in_process("completion", "install", environ={**env, "SHELL": "/usr/bin/zsh"})
    assert done.returncode == 0, done.stderr
    target = Path(env["HOME"]) / ".zfunc" / "_leafexplain"
    assert target.read_text(encoding="utf-8") == script("zsh")
    assert f"installed zsh completion: {target}" in done.stderr
    assert "fpath=(~/.zfunc $fpath)" in done.stderr and "compinit" in done.stderr
    (Path(env["HOME"]) / ".zshrc").write_text("fpath=(~/.zfunc $fpath)\nautoload -Uz compinit && compinit\n")
    again = run_in_process("completion", "install", "zsh", environ=env)
    assert again.returncode == 0 and "fpath=" not in again.stderr


def test_completion_install_fish_then_fish_finds_it_alone(env: dict[str, str]) -> None:
    need("fish")
    done = run_in_process("completion", "install", environ={**env, "SHELL": "/usr/bin/fish"})
    assert done.returncode == 0, done.stderr
    target = Path(env["XDG_CONFIG_HOME"]) / "fish" / "completions" / "leafexplain.fish"
    assert target.read_text(encoding="utf-8") == script("fish")
    assert f"installed fish completion: {target}" in done.stderr
    got = fish_complete(["leafexplain sh", "leafexplain list --repo acme/g"], env, alone=True)
    assert got == {"leafexplain sh": ["show"], "leafexplain list --repo acme/g": ["acme/gadgets"]}


def test_completion_install_powershell_dot_sources_it_from_the_profile_once(env: dict[str, str]) -> None:
    no_pwsh = {**env, "PATH": str(Path(sys.executable).parent)}  # the profile's default place, not pwsh's answer
    profile = Path(env["XDG_CONFIG_HOME"]) / "powershell" / "Microsoft.PowerShell_profile.ps1"
    profile.parent.mkdir(parents=True)
    profile.write_text("Set-PSReadLineOption -EditMode Emacs", encoding="utf-8")
    for _ in range(2):
        done = run_in_process("completion", "install", "powershell", environ=no_pwsh)
        assert done.returncode == 0, done.stderr
    target = profile.parent / "leafexplain-completion.ps1"
    assert target.read_text(encoding="utf-8") == script("powershell")
    assert profile.read_text(encoding="utf-8") == f"Set-PSReadLineOption -EditMode Emacs\n. '{target}'\n"
    assert "loads it already" in done.stderr


def test_completion_install_without_a_known_shell_asks_for_one(env: dict[str, str]) -> None:
    done = run_in_process("completion", "install", environ={**env, "SHELL": "/bin/sh"})
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("leafexplain: cannot tell your shell from $SHELL (/bin/sh)")
    assert not any(Path(env["HOME"]).iterdir())


def test_detect_shell_reads_shell_names() -> None:
    from leafexplain.integrations.completion.install import Shell, detect_shell

    assert detect_shell({"SHELL": "/usr/local/bin/zsh"}) is Shell.zsh
    assert detect_shell({"SHELL": "/opt/homebrew/bin/fish"}) is Shell.fish
    assert detect_shell({"SHELL": "/usr/bin/pwsh"}) is Shell.powershell
    assert detect_shell({"SHELL": "/bin/bash"}) is Shell.bash
    assert detect_shell({"SHELL": "/bin/dash"}) is None


def test_wheel_carries_the_scripts_and_completion_show_finds_them(tmp_path: Path, wheel: Path) -> None:
    site = tmp_path / "site"
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(site)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    for name in SCRIPTS.values():
        assert (site / "leafexplain" / "_completions" / name).read_bytes() == (LOADERS / name).read_bytes()
    shown = subprocess.run(
        [sys.executable, "-m", "leafexplain", "completion", "show", "fish"],
        env={**Isolated(tmp_path).environ, "PYTHONPATH": str(site)},
        cwd=elsewhere,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout == script("fish")


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_a_list_older_than_the_record_index_is_asked_for_again(shell: str, env: dict[str, str]) -> None:
    """The records changed (their index was rebuilt after the lists were written): a TAB asks leafexplain
    again rather than offering the ids of before, and that answer is kept for the next TAB."""
    need(shell)
    cache = Path(env["XDG_CACHE_HOME"]) / "leafexplain"
    index = cache / "index"
    index.mkdir(exist_ok=True)
    lists = cache / "complete"
    old = time.time() - 100
    for kind in ("ids", "slugs"):
        os.utime(lists / f"{kind}.txt", (old, old))
    os.utime(index, (old + 50, old + 50))  # rebuilt after the lists were written
    line = "leafexplain show 7455"
    if shell == "bash":
        got = bash_complete(line, env)
    else:
        got = (zsh_complete if shell == "zsh" else fish_complete)([line], env)[line]
    assert got == [SEED_ID], "the old list's ids, not the records' own"
    assert SEED_ID in (lists / "ids.txt").read_text(encoding="utf-8").split()
