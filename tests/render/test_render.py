"""Golden files for rendered output: each format at a fixed width, with and without colour.

Regenerate after an intended change with LEAFEXPLAIN_UPDATE_GOLDEN=1 and read the diff.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from tests.conftest import OUTPUTS, ROOT

GOLDEN = Path(__file__).parents[1] / "golden"
WIDTH = "90"
# --no-source: whether the frames' files exist depends on the machine (tests/locate/test_localsource.py covers them).
CASES = {
    "burn-backtrace": ["--no-source", "--file", str(OUTPUTS / "rust" / "cargo-run-backtrace.txt")],
    "json-decode": ["--no-source", "--file", str(OUTPUTS / "python" / "json-decode.txt")],
    "cargo-test-three": ["--no-source", "--file", str(OUTPUTS / "rust" / "cargo-test-three.txt")],
    "unknown-panic": ["--no-source", "--file", str(OUTPUTS / "rust" / "cargo-run-unknown.txt")],
    "show-pytorch": ["show", "mat1-and-mat2-shapes-cannot-be-multiplied-32x512-a"],
}
FORMATS = {
    "plain": ["--format", "plain"],
    "markdown": ["--format", "markdown"],
    "json": ["--format", "json"],
    "terminal-color": ["--format", "terminal", "--color", "always"],
    "terminal-nocolor": ["--format", "terminal", "--color", "never"],
    "github": ["--format", "github"],
    "sarif": ["--format", "sarif"],
    "concise": ["--format", "concise"],
    "jsonl": ["--format", "jsonl"],
}
# github and sarif name files relative to the workspace: the checkout here, shown as WORKSPACE in the files.
WORKSPACE = {"GITHUB_WORKSPACE": str(ROOT)}
ESCAPES = re.compile(r"\x1b")
LINK_ID = re.compile(r"\x1b\]8;id=\d+;")  # rich numbers each hyperlink at random


def stable(text: str) -> str:
    return LINK_ID.sub("\x1b]8;id=0;", text).replace(ROOT.as_uri(), "file:///WORKSPACE")


# github and concise write a record as plain text (test_ci_formats.py, tests/render/formats/test_concise.py check
# it is the same): no golden file of their own.
AS_PLAIN = ("github", "concise")
PAIRS = [(c, f) for c in sorted(CASES) for f in sorted(FORMATS) if not (f in AS_PLAIN and CASES[c][0] == "show")]


@pytest.mark.parametrize(("case", "fmt"), PAIRS)
def test_golden(case: str, fmt: str, cli) -> None:
    args = CASES[case]
    options = [*FORMATS[fmt], "--width", WIDTH]
    args = [*args, *options] if args[0] == "show" else [*options, *args]
    result = cli(*args, extra_env=WORKSPACE, cwd=ROOT)
    assert result.returncode == (1 if case == "unknown-panic" else 0), result.stderr  # 1: no record explains it
    golden = GOLDEN / f"{case}.{fmt}.txt"
    if os.environ.get("LEAFEXPLAIN_UPDATE_GOLDEN"):
        golden.write_text(stable(result.stdout), encoding="utf-8", newline="")
    assert stable(result.stdout) == golden.read_text(encoding="utf-8")
    if fmt != "terminal-color":
        assert not ESCAPES.search(result.stdout), "no escape codes without colour"
    else:
        assert ESCAPES.search(result.stdout)


@pytest.mark.parametrize("color", ["always", "never"])
def test_rich_is_the_terminal_formats_old_name(color: str, cli) -> None:
    """`--format rich` (the colour format's name before it was written without rich) is still accepted, and
    writes what `--format terminal` writes; the choices offered name `terminal`."""
    from leafexplain.render import FORMAT_ALIASES, FORMAT_CHOICES

    assert FORMAT_ALIASES == {"rich": "terminal"}
    assert "terminal" in FORMAT_CHOICES and "rich" not in FORMAT_CHOICES
    args = ["--color", color, "--width", WIDTH, *CASES["json-decode"]]
    terminal = cli("--format", "terminal", *args, extra_env=WORKSPACE, cwd=ROOT)
    rich = cli("--format", "rich", *args, extra_env=WORKSPACE, cwd=ROOT)
    assert rich.returncode == terminal.returncode
    assert (
        stable(rich.stdout)
        == stable(terminal.stdout)
        == (GOLDEN / f"json-decode.terminal-{'color' if color == 'always' else 'nocolor'}.txt").read_text(
            encoding="utf-8"
        )
    )
