"""Every record's example fix works: the "after" code runs (Python) or compiles and runs (Rust std)."""

from __future__ import annotations

import importlib.util
import json
import select
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from leafexplain.records import load_paths
from tests.conftest import RECORDS

ALL = load_paths([str(RECORDS)]).records
HAVE_TORCH = importlib.util.find_spec("torch") is not None


def after_part(fix: str, marker: str) -> str:
    return fix.split(f"\n{marker} after\n", 1)[1]


@pytest.mark.parametrize("record", [r for r in ALL if r.repo == "python/cpython"], ids=lambda r: r.slug)
def test_cpython_fix_runs(record, tmp_path: Path) -> None:
    script = tmp_path / "fix.py"
    script.write_text(after_part(record.exampleFix, "#"))
    done = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]


# A Python that has imported torch once and forks for each script: the child runs the script as
# `python fix.py` would (its own process, folder, argv and output), without importing torch again
# (over a second each time, thirty-odd times).
FORK_SERVER = """
import json, os, runpy, sys, traceback
import torch  # noqa: F401
print("ready", flush=True)
for line in sys.stdin:
    script, cwd = json.loads(line)
    pid = os.fork()
    if pid == 0:
        os.chdir(cwd)
        err = os.open(os.path.join(cwd, "stderr.txt"), os.O_WRONLY | os.O_CREAT)
        os.dup2(err, 2)
        os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
        sys.argv = [script]
        code = 0
        try:
            runpy.run_path(script, run_name="__main__")
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        except BaseException:
            traceback.print_exc()
            code = 1
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    _, status = os.waitpid(pid, 0)
    print(os.waitstatus_to_exitcode(status), flush=True)
"""


@pytest.fixture(scope="module")
def torch_python():
    """Run a script in a fork of a Python that has torch imported: (exit code, stderr)."""
    server = subprocess.Popen(
        [sys.executable, "-c", FORK_SERVER], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    assert server.stdin is not None and server.stdout is not None
    assert server.stdout.readline() == "ready\n"

    def run(script: Path) -> tuple[int, str]:
        server.stdin.write(json.dumps([str(script), str(script.parent)]) + "\n")  # type: ignore[union-attr]
        server.stdin.flush()  # type: ignore[union-attr]
        ready, _, _ = select.select([server.stdout], [], [], 120)
        if not ready:
            server.kill()
            pytest.fail(f"{script} ran for more than 120 s")
        code = int(server.stdout.readline())  # type: ignore[union-attr]
        return code, (script.parent / "stderr.txt").read_text()

    yield run
    server.stdin.close()
    server.wait(timeout=60)


@pytest.mark.skipif(not HAVE_TORCH, reason="torch is not installed")
@pytest.mark.parametrize("record", [r for r in ALL if r.repo == "pytorch/pytorch"], ids=lambda r: r.slug)
def test_pytorch_fix_runs(record, tmp_path: Path, torch_python) -> None:
    script = tmp_path / "fix.py"
    script.write_text(after_part(record.exampleFix, "#"))
    code, stderr = torch_python(script)
    assert code == 0, stderr[-2000:]


@pytest.mark.skipif(shutil.which("rustc") is None, reason="rustc is not installed")
def test_rust_std_fixes_compile_and_run(tmp_path: Path) -> None:
    failures = []
    for record in (r for r in ALL if r.repo == "rust-lang/rust"):
        source = tmp_path / f"{record.slug.replace('-', '_')}.rs"
        source.write_text(after_part(record.exampleFix, "//"))
        exe = tmp_path / record.slug
        built = subprocess.run(
            ["rustc", "--edition", "2021", "-o", str(exe), str(source)], capture_output=True, text=True
        )
        if built.returncode != 0:
            failures.append(f"{record.slug}: {built.stderr[-500:]}")
            continue
        ran = subprocess.run([str(exe)], capture_output=True, text=True, timeout=30)
        if ran.returncode != 0:
            failures.append(f"{record.slug}: exit {ran.returncode}: {ran.stderr[-300:]}")
    assert failures == []
