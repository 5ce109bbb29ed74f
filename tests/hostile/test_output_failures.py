"""An output that cannot be written (a full disk, a read-only descriptor) ends the run with 74 and one line on
stderr, never a traceback; for `run` the command's own status stands. Real processes: real descriptors."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import LEAF, Isolated, leafexplain_command

FULL = "/dev/full"
pytestmark = pytest.mark.skipif(not os.path.exists(FULL), reason="needs /dev/full (Linux)")


def run_to(tmp_path: Path, args: list[str], *, stdout: str | None = None, stderr: str | None = None, python_m=False):
    command = [sys.executable, "-m", "leafexplain"] if python_m else leafexplain_command()
    with open(stdout or os.devnull, "wb") as out, open(stderr, "wb") if stderr else open(os.devnull, "wb") as err:
        return subprocess.run(
            [*command, *args],
            stdout=out if stdout else subprocess.DEVNULL,
            stderr=err if stderr else subprocess.PIPE,
            env=Isolated(tmp_path).environ,
            timeout=60,
        )


@pytest.mark.parametrize(
    "args",
    [["--format", "plain", "--file", str(LEAF)], ["list"], ["show", "745587749477e02c"], ["--version"], ["--help"]],
    ids=["explain", "list", "show", "version", "help"],
)
@pytest.mark.parametrize("python_m", [False, True], ids=["script", "python -m"])
def test_a_full_disk_for_the_output_is_74_and_one_line(tmp_path: Path, args: list[str], python_m: bool) -> None:
    done = run_to(tmp_path, args, stdout=FULL, python_m=python_m)
    assert done.returncode == 74
    assert b"Traceback" not in done.stderr and done.stderr.count(b"\n") <= 1, done.stderr


def test_a_read_only_output_is_74(tmp_path: Path) -> None:
    done = subprocess.run(
        [*leafexplain_command(), "--format", "plain", "--file", str(LEAF)],
        stdin=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=Isolated(tmp_path).environ,
        timeout=60,
        preexec_fn=lambda: os.dup2(os.open(os.devnull, os.O_RDONLY), 1),
    )
    assert done.returncode == 74 and b"cannot write the output" in done.stderr and b"Traceback" not in done.stderr


def test_run_keeps_the_commands_status_when_its_explanation_cannot_be_written(tmp_path: Path) -> None:
    # One write: with print's separate "\n", the child's second write could meet the pipe `run` closed once our
    # stderr failed, and the child would end 1 (as it does writing to /dev/full itself), not 101.
    child = "import sys; sys.stderr.write('thread \\'main\\' panicked at src/main.rs:1:5:\\nboom\\n'); sys.exit(101)"
    done = run_to(tmp_path, ["run", "--", sys.executable, "-c", child], stderr=FULL)
    assert done.returncode == 101
