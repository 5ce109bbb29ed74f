"""`leafexplain run` returns when its child exits, after a short, bounded drain of what a grandchild still writes,
and its exit code is always the child's, whatever leafexplain's own streams are (`2>&-`, `>&-`)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import Isolated, leafexplain_command

TICKER = "import time\nwhile True:\n    print('tick', flush=True)\n    time.sleep(0.005)\n"
PANIC = "thread 'main' panicked at src/main.rs:1:5:\nCan't convert a non leaf tensor into a tracked tensor\n"


@pytest.mark.parametrize("stream", ["stdout", "stderr"])
def test_a_grandchild_that_never_stops_writing_does_not_keep_run_waiting(tmp_path: Path, stream: str) -> None:
    redirect = ">&2" if stream == "stderr" else ""
    script = f'{sys.executable} -c "{TICKER}" {redirect} & echo "grandchild $!" > {tmp_path / "pid"}; exit 3'
    try:
        done = subprocess.run(
            [*leafexplain_command(), "run", "--", "sh", "-c", script],
            capture_output=True,
            env=Isolated(tmp_path).environ,
            timeout=60,
        )
    finally:
        pid = int((tmp_path / "pid").read_text().split()[1])
        os.kill(pid, signal.SIGTERM)  # the ticker the test started, by its id
    assert done.returncode == 3
    assert b"tick" in (done.stdout if stream == "stdout" else done.stderr)


def run_closed(fd: int, script: str, tmp: Path) -> int:
    """`leafexplain run -- sh -c SCRIPT` with leafexplain's own fd `fd` closed before it starts."""
    return subprocess.run(
        [*leafexplain_command(), "run", "--", "sh", "-c", script],
        stdin=subprocess.DEVNULL if fd != 0 else None,
        stdout=subprocess.DEVNULL if fd != 1 else None,
        stderr=subprocess.DEVNULL if fd != 2 else None,
        env=Isolated(tmp).environ,
        preexec_fn=lambda: os.close(fd),
        timeout=60,
    ).returncode


@pytest.mark.parametrize("fd", [1, 2])
def test_the_exit_code_is_the_childs_with_a_closed_stream(tmp_path: Path, fd: int) -> None:
    chatty = f"{sys.executable} -c \"import sys; [print('x' * 200, file=sys.stderr) for _ in range(5000)]\"; exit 3"
    assert run_closed(fd, chatty, tmp_path) == 3
    (tmp_path / "panic.txt").write_text(PANIC)
    assert run_closed(fd, f"cat {tmp_path / 'panic.txt'} >&2; exit 101", tmp_path) == 101
    assert run_closed(fd, "echo out; echo err >&2; exit 0", tmp_path) == 0
    assert run_closed(fd, "kill -TERM $$", tmp_path) == 143


def test_a_closed_stdin_is_dev_null_for_the_child(tmp_path: Path) -> None:
    """Not a pipe of ours that took the free number 0: the child reads an empty input and ends."""
    assert run_closed(0, "cat; exit 3", tmp_path) == 3
