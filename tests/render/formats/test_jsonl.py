"""`--format jsonl`: one JSON object a line per error, the json format's event, written as each error completes."""

from __future__ import annotations

import json
import os
import selectors
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from tests.conftest import LEAF, OUTPUTS, SEED_ID, Isolated, leafexplain_command

THREE = str(OUTPUTS / "rust" / "cargo-test-three.txt")


def test_one_object_a_line_the_same_as_the_json_formats_events(cli: Isolated) -> None:
    lines = cli("--format", "jsonl", "--file", THREE).stdout.splitlines()
    document = json.loads(cli("--format", "json", "--file", THREE).stdout)
    assert [json.loads(line) for line in lines] == document["events"] and len(lines) == 3
    assert all(line.isascii() and line.startswith("{") for line in lines)


def test_records_one_a_line(cli: Isolated) -> None:
    (shown,) = cli("show", SEED_ID, "--format", "jsonl").stdout.splitlines()
    assert json.loads(shown)["id"] == SEED_ID
    listed = [
        json.loads(line) for line in cli("list", "--repo", "tracel-ai/burn", "--format", "jsonl").stdout.splitlines()
    ]
    assert listed and {"id", "repo", "slug", "errorMessage"} <= set(listed[0])


def test_nothing_found_is_no_line(cli: Isolated) -> None:
    done = cli("--format", "jsonl", input="test result: ok. 3 passed; 0 failed\n")
    assert done.returncode == 0 and done.stdout == ""


def test_run_writes_each_object_as_its_error_completes(cli: Isolated, tmp_path: Path) -> None:
    """A child that prints a traceback, waits, then prints another: the first error's object is read while the
    child still runs (before the second traceback is printed), each on leafexplain's stderr as `run` writes."""
    child = tmp_path / "two.py"
    child.write_text(
        textwrap.dedent(
            """
            import sys, time
            sys.stderr.write(open(sys.argv[1]).read())
            sys.stderr.flush()
            time.sleep(float(sys.argv[2]))
            print("Traceback (most recent call last):\\n  File \\"two.py\\", line 9, in <module>\\nKeyError: 'lr'",
                  file=sys.stderr, flush=True)
            """
        )
    )
    pause = 8.0
    started = time.monotonic()
    command = [*leafexplain_command(), "run", "--format", "jsonl", "--no-source", "--"]
    command += [sys.executable, str(child), str(LEAF), str(pause)]
    with subprocess.Popen(command, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, env=cli.environ) as process:
        assert process.stderr is not None
        first = _first_json_line(process.stderr, deadline=started + pause)
        read_at = time.monotonic() - started
        assert process.poll() is None, "the child is still running"
        rest = process.stderr.read().decode()
    assert first["matches"][0]["id"] == SEED_ID and read_at < pause, read_at
    objects = [json.loads(line) for line in rest.splitlines() if line.startswith("{")]
    assert [o["error_type"] for o in objects] == ["KeyError"]  # the first is not written again at the end
    assert process.returncode == 0


def test_run_in_process_writes_each_error_once(cli: Isolated, tmp_path: Path) -> None:
    script = tmp_path / "fail.py"
    script.write_text("import sys\nsys.stderr.write(open(sys.argv[1]).read())\nraise KeyError('x')\n")
    ran = cli("run", "--format", "jsonl", "--no-source", "--", sys.executable, str(script), str(LEAF))
    objects = [json.loads(line) for line in ran.stderr.splitlines() if line.startswith("{")]
    assert ran.returncode == 1 and [o["error_type"] for o in objects] == ["panic", "KeyError"]


def _first_json_line(stream, deadline: float) -> dict:
    """The first line of `stream` that is a JSON object, read before `deadline` (else the test fails)."""
    selector = selectors.DefaultSelector()
    selector.register(stream, selectors.EVENT_READ)
    buffer = b""
    while time.monotonic() < deadline:
        if not selector.select(timeout=max(deadline - time.monotonic(), 0)):
            break
        chunk = os.read(stream.fileno(), 65536)
        if not chunk:
            break
        buffer += chunk
        for line in buffer.split(b"\n")[:-1]:
            if line.startswith(b"{"):
                return json.loads(line)
    raise AssertionError(f"no JSON line before the child's pause ended: {buffer[-500:]!r}")
