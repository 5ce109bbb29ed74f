"""The fast path parses exactly what the full CLI would, and leaves everything else to it."""

from __future__ import annotations

import subprocess
import sys

import pytest

from leafexplain.cli.router import parse_explain
from tests.conftest import LEAF
from tests.render.test_render import stable


def test_parses_the_everyday_forms() -> None:
    assert parse_explain(["--format", "json", "--file", "x.log"]) == {"fmt": "json", "file": "x.log", "text": ()}
    parsed = parse_explain(["-F=plain", "--records", "a", "--records=b", "--all", "--width", "90", "some", "text"])
    assert parsed == {
        "fmt": "plain",
        "records": ("a", "b"),
        "show_all": True,
        "width": 90,
        "text": ("some", "text"),
    }
    assert parse_explain(["--", "show", "--all"])["text"] == ("show", "--all")


@pytest.mark.parametrize(
    "args",
    [
        ["show", "x"],
        ["--records", "d", "list"],
        ["--help"],
        ["--format", "yaml"],
        ["--width", "5"],
        ["--threshold", "x"],
        ["--file"],
        ["--all=1"],
        ["-V"],
    ],
)
def test_anything_unusual_goes_to_the_full_cli(args: list[str]) -> None:
    assert parse_explain(args) is None


@pytest.mark.parametrize(
    "args",
    [
        ["--format", "json", "--file", str(LEAF)],
        ["--format", "plain", "--width", "80", "--all", "--file", str(LEAF)],
        ["--format", "markdown", "--no-source", "--file", str(LEAF)],
        ["--format", "rich", "--color", "always", "--width", "90", "--full", "--file", str(LEAF)],
        ["--format", "json", "RefCell", "already", "borrowed"],
        ["--format", "json", "--file", "/nonexistent/file.log"],
        ["--format", "json", "--root", "/nonexistent-root", "--file", str(LEAF)],
    ],
)
def test_fast_and_full_paths_give_the_same_output(args: list[str], cli) -> None:
    fast = cli(*args)
    full = cli("explain", *args)  # a subcommand name: always the typer command
    assert (fast.returncode, stable(fast.stdout), fast.stderr) == (full.returncode, stable(full.stdout), full.stderr)


def test_piped_stdin_to_python_m_leafexplain() -> None:
    """`python -m leafexplain` is the command, in a process of its own reading a real pipe."""
    piped = subprocess.run(
        [sys.executable, "-m", "leafexplain", "--format", "json"], input=LEAF.read_bytes(), capture_output=True
    )
    assert piped.returncode == 0 and b"745587749477e02c" in piped.stdout


def test_root_help_is_what_the_full_cli_prints(cli, environment, monkeypatch: pytest.MonkeyPatch) -> None:
    import typer

    from leafexplain.cli.app import app
    from leafexplain.cli.guard import invoke_click

    for columns in ("80", "132"):
        monkeypatch.setenv("COLUMNS", columns)  # click lays its help out to the terminal it sees
        fast = cli("--help", extra_env={"COLUMNS": columns})
        full = environment(COLUMNS=columns)
        assert invoke_click(typer.main.get_command(app), ["--help"], full) == fast.returncode == 0
        assert fast.stdout == full.written
    monkeypatch.setenv("COLUMNS", "60")
    narrow = cli("-h", extra_env={"COLUMNS": "60"})
    assert narrow.returncode == 0 and max(len(line) for line in narrow.stdout.splitlines()) <= 60
