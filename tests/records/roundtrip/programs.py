"""Run a record's example fix for real: its "before" program must fail with the record's error, its "after" run clean.

Used by tests/records/test_roundtrip.py (the round trip) and tools/make_corpus.py (the real outputs kept in
the corpus). CPython and NumPy records run with this Python, PyTorch records with torch when it is installed
(in forks of one Python that imported it once), the other Python libraries' records (pandas, scikit-learn,
transformers, Lightning, Keras, huggingface_hub, JAX, requests, urllib3, pydantic) with this Python when the
library is installed, Rust standard-library records compile with rustc, and so do compile records (errorType
"compile"), whose "before" must fail to compile with the record's error code and nothing else. Records of crates
(burn, tokio, serde) need the crates registry, which this project's machines cannot reach; each skip file in skip/
says why a record is not run.
"""

from __future__ import annotations

import importlib.util
import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import NamedTuple

from leafexplain.models import Record

SKIPS = Path(__file__).parent / "skip"
TIMEOUT = 120
# The module each library's records need; CI installs numpy and torch only, so the others skip there
# with "<module> is not installed".
PYTHON_REPOS = {
    "python/cpython": None,
    "numpy/numpy": "numpy",
    "pytorch/pytorch": "torch",
    "pandas-dev/pandas": "pandas",
    "scikit-learn/scikit-learn": "sklearn",
    "huggingface/transformers": "transformers",
    "Lightning-AI/pytorch-lightning": "lightning",
    "jax-ml/jax": "jax",
    "psf/requests": "requests",
    "urllib3/urllib3": "urllib3",
    "pydantic/pydantic": "pydantic",
    "keras-team/keras": "keras",  # its programs pick the torch backend, so no TensorFlow is needed
    "huggingface/huggingface_hub": "huggingface_hub",
    "tensorflow/tensorflow": "tensorflow",
}


class Ran(NamedTuple):
    code: int
    output: str  # stdout and stderr, as a terminal would show them interleaved
    compiled: bool = True  # a Rust program that did not compile was not run: `output` is rustc's


def error_codes(output: str) -> set[str]:
    """The codes of rustc's `error[E0382]: ...` headers in an output (read here, not by leafexplain's extractor,
    whose reading the round trip checks)."""
    return {line[6:11] for line in output.splitlines() if line.startswith("error[E") and line[11:14] == "]: "}


def compile_problem(record: Record, before: Ran, after: Ran) -> str | None:
    """A compile record's programs: the "before" fails to compile with the record's code alone (a record of a
    diagnostic without a code, with none), the "after" compiles and runs clean. None: both do; else what went
    wrong."""
    if before.compiled:
        return f"{record.slug}: before compiled (exit {before.code})"
    codes = error_codes(before.output)
    if codes != ({record.errorCode} if record.errorCode else set()):  # a diagnostic without a code: none at all
        return f"{record.slug}: before fails with {sorted(codes)}, not {record.errorCode}: {before.output[-300:]}"
    if not after.compiled or after.code:
        return f"{record.slug}: after exits {after.code}: {after.output[-300:]}"
    return None


def parts(record: Record) -> tuple[str, str]:
    """The "before" and "after" programs of the record's exampleFix."""
    marker = "//" if record.language == "rust" else "#"
    body = (record.exampleFix or "").removeprefix(f"{marker} before\n")
    before, _, after = body.partition(f"\n{marker} after\n")
    return before, after


def skip_reasons() -> dict[str, str]:
    reasons: dict[str, str] = {}
    for path in sorted(SKIPS.glob("*.json")):
        reasons.update(json.loads(path.read_text(encoding="utf-8")))
    return reasons


def why_not_runnable(record: Record) -> str | None:
    """None when the record's programs can run here; else why not."""
    if record.repo in PYTHON_REPOS:
        module = PYTHON_REPOS[record.repo]
        if module and importlib.util.find_spec(module) is None:
            return f"{module} is not installed"
        return None
    if record.repo == "rust-lang/rust":
        return None if shutil.which("rustc") else "rustc is not installed"
    return "needs crates from crates.io, which this machine cannot reach"


def _run(argv: list[str], cwd: Path, env: dict[str, str] | None = None) -> Ran:
    try:
        done = subprocess.run(argv, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=TIMEOUT, env=env)
    except subprocess.TimeoutExpired as exc:
        return Ran(-9, (exc.output or b"").decode("utf-8", "replace") + f"\n[timed out after {TIMEOUT} s]")
    return Ran(done.returncode, done.stdout.decode("utf-8", "replace"))


# A Python that has imported torch once and forks for each script: the child runs the script as
# `python prog.py` would (its own process, folder, argv and output), without importing torch again
# (over a second each time, a hundred times).
FORK_SERVER = """
import json, os, runpy, sys, traceback
import torch  # noqa: F401
print("ready", flush=True)
for line in sys.stdin:
    script, cwd = json.loads(line)
    pid = os.fork()
    if pid == 0:
        os.chdir(cwd)
        out = os.open(os.path.join(cwd, "output.txt"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
        os.dup2(out, 1)
        os.dup2(out, 2)
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


class Runner:
    """Runs programs by language; one torch fork server, started at the first PyTorch program."""

    def __init__(self, work: Path) -> None:
        self.work = work
        self.torch: subprocess.Popen[str] | None = None

    def python(self, source: str, folder: Path, *, torch: bool) -> Ran:
        folder.mkdir(parents=True, exist_ok=True)
        script = folder / "main.py"
        script.write_text(source, encoding="utf-8")
        if not torch:
            return _run([sys.executable, script.name], folder, _child_env())
        server = self._torch_server()
        server.stdin.write(json.dumps([str(script), str(folder)]) + "\n")  # type: ignore[union-attr]
        server.stdin.flush()  # type: ignore[union-attr]
        ready, _, _ = select.select([server.stdout], [], [], TIMEOUT)
        if not ready:
            server.kill()
            self.torch = None
            return Ran(-9, f"[timed out after {TIMEOUT} s]")
        code = int(server.stdout.readline())  # type: ignore[union-attr]
        return Ran(code, (folder / "output.txt").read_text(encoding="utf-8", errors="replace"))

    def rust(self, source: str, folder: Path, *, backtrace: bool = False) -> Ran:
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "main.rs").write_text(source, encoding="utf-8")
        built = _run(["rustc", "--edition", "2021", "-o", "main", "main.rs"], folder)
        if built.code != 0:
            return Ran(built.code, "[does not compile]\n" + built.output, compiled=False)
        env = _child_env()
        env.pop("RUST_BACKTRACE", None)
        if backtrace:
            env["RUST_BACKTRACE"] = "1"
        return _run(["./main"], folder, env)

    def program(self, record: Record, which: str) -> Ran:
        """Run the record's "before" or "after" program in a folder of its own."""
        before, after = parts(record)
        source = before if which == "before" else after
        folder = self.work / record.slug / which
        if record.language == "rust":
            return self.rust(source, folder)
        return self.python(source, folder, torch=record.repo == "pytorch/pytorch")

    def _torch_server(self) -> subprocess.Popen[str]:
        if self.torch is None:
            self.torch = subprocess.Popen(
                [sys.executable, "-c", FORK_SERVER], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                env=_child_env(),
            )  # fmt: skip
            assert self.torch.stdout is not None and self.torch.stdout.readline() == "ready\n"
        return self.torch

    def close(self) -> None:
        if self.torch is not None:
            self.torch.stdin.close()  # type: ignore[union-attr]
            self.torch.wait(timeout=60)


def _child_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONWARNINGS", "NO_COLOR", "FORCE_COLOR")}
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


@contextmanager
def runner(work: Path | None = None) -> Iterator[Runner]:
    with tempfile.TemporaryDirectory(prefix="leafexplain-roundtrip-") as tmp:
        ran = Runner(work or Path(tmp))
        try:
            yield ran
        finally:
            ran.close()
