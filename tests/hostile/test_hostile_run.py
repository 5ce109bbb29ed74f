"""`leafexplain run` returns when its child exits, after a short, bounded drain of what a grandchild still writes,
and its exit code is always the child's, whatever leafexplain's own streams are (`2>&-`, `>&-`)."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
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


def run_closed(fds: tuple[int, ...], script: str, tmp: Path) -> int:
    """`leafexplain run -- sh -c SCRIPT` with leafexplain's own descriptors `fds` closed before it starts."""

    def close() -> None:
        for fd in fds:
            os.close(fd)

    return subprocess.run(
        [*leafexplain_command(), "run", "--", "sh", "-c", script],
        stdin=subprocess.DEVNULL if 0 not in fds else None,
        stdout=subprocess.DEVNULL if 1 not in fds else None,
        stderr=subprocess.DEVNULL if 2 not in fds else None,
        env=Isolated(tmp).environ,
        preexec_fn=close,
        timeout=60,
    ).returncode


# Its own exit code: 3 when every line was written, another one when its stderr met a closed pipe.
WRITE_5000_LINES = "import sys; [print('x' * 200, file=sys.stderr) for _ in range(5000)]; sys.exit(3)"
CHATTY = f'exec {sys.executable} -c "{WRITE_5000_LINES}"'


@pytest.mark.parametrize("fds", [(1,), (2,), (0, 1), (0, 2), (0, 1, 2)], ids=str)
def test_the_exit_code_is_the_childs_with_closed_streams(tmp_path: Path, fds: tuple[int, ...]) -> None:
    """A closed descriptor is /dev/null from the start, so no pipe of ours takes its number: the child's
    output is drained, never met with a closed pipe that would change how it ends."""
    assert run_closed(fds, CHATTY, tmp_path) == 3
    (tmp_path / "panic.txt").write_text(PANIC)
    assert run_closed(fds, f"cat {tmp_path / 'panic.txt'} >&2; exit 101", tmp_path) == 101
    assert run_closed(fds, "echo out; echo err >&2; exit 0", tmp_path) == 0
    assert run_closed(fds, "kill -TERM $$", tmp_path) == 143


def test_a_closed_stdin_is_dev_null_for_the_child(tmp_path: Path) -> None:
    """The child reads an empty input and ends, as from /dev/null."""
    assert run_closed((0,), "cat; exit 3", tmp_path) == 3


def test_a_non_blocking_output_that_fills_up_is_waited_for(tmp_path: Path) -> None:
    # A parent set O_NONBLOCK on the pipe it gave us for stderr and reads it late: the pipe fills, and each write
    # waits for room (as a blocking write does); the command is never cut off, its code stands.
    import fcntl

    read_end, write_end = os.pipe()
    with contextlib.suppress(OSError):
        fcntl.fcntl(write_end, 1031, 4096)  # F_SETPIPE_SZ (Linux): a small pipe fills at once
    fcntl.fcntl(write_end, fcntl.F_SETFL, fcntl.fcntl(write_end, fcntl.F_GETFL) | os.O_NONBLOCK)
    child = "import sys; sys.stderr.write('line\\n' * 50000 + 'KeyError: 1\\n'); sys.exit(3)"
    proc = subprocess.Popen(
        [*leafexplain_command(), "run", "--", sys.executable, "-c", child],
        stderr=write_end,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        env=Isolated(tmp_path).environ,
    )
    os.close(write_end)
    time.sleep(2)  # the pipe is full by now
    with os.fdopen(read_end, "rb") as reader:
        out = reader.read()
    assert proc.wait(timeout=60) == 3
    assert out.count(b"line\n") == 50000 and b"KeyError" in out
