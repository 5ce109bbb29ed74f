"""Run a suite's failing Python programs for real and keep what each printed: what a suite's `make.py` calls.

Each program in `<suite>/programs/` runs with this Python from an empty temporary folder (so nothing it looks for
exists and nothing it writes lands here), unbuffered and without the caller's PYTHONPATH or start-up file; its
output, stdout and stderr together (`2>&1`) as a user piping it into leafexplain would have it, goes to
`<suite>/outputs/<name>.txt`. A program that exits 0 is an error of the suite: every case must fail.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path


def child_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONSTARTUP", "PYTHONINTMAXSTRDIGITS")}
    env["PYTHONUNBUFFERED"] = "1"
    env["PYTHONDONTWRITEBYTECODE"] = "1"  # no __pycache__ left in programs/
    return env


def run(program: Path) -> bytes:
    with tempfile.TemporaryDirectory(prefix=f"{program.parent.parent.name}-") as tmp:
        proc = subprocess.run(
            [sys.executable, str(program)], cwd=tmp, env=child_env(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT
        )
    if proc.returncode == 0:
        raise SystemExit(f"{program.name} ran clean: every case must fail")
    return proc.stdout


def regenerate(suite: Path, argv: list[str]) -> int:
    """Every program of `suite` (or only those named in `argv`, without .py) run again, its output kept."""
    wanted, outputs = set(argv), suite / "outputs"
    outputs.mkdir(exist_ok=True)
    for program in sorted((suite / "programs").glob("*.py")):
        if wanted and program.stem not in wanted:
            continue
        text = run(program)
        (outputs / f"{program.stem}.txt").write_bytes(text)
        print(f"wrote outputs/{program.stem}.txt ({len(text)} bytes)")
    return 0
