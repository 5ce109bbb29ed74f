"""Regenerate outputs/ by running every program in programs/ for real with this Python.

    python tests/corpus/cpython_objects/make.py                  # all cases
    python tests/corpus/cpython_objects/make.py feb_30 join_int  # only the named cases

Each program runs in an empty temporary folder (so nothing it looks for exists and nothing it writes lands
here), with PYTHONUNBUFFERED=1; the output is stdout and stderr together (`2>&1`), as a user piping it into
leafexplain would have it. A program that exits 0 is an error of the suite: every case must fail.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
PROGRAMS = HERE / "programs"
OUTPUTS = HERE / "outputs"


def child_env() -> dict[str, str]:
    env = dict(os.environ)
    for name in ("PYTHONPATH", "PYTHONSTARTUP", "PYTHONINTMAXSTRDIGITS"):
        env.pop(name, None)
    env["PYTHONUNBUFFERED"] = "1"
    env["PYTHONDONTWRITEBYTECODE"] = "1"  # no __pycache__ left in programs/
    return env


def run(program: Path) -> bytes:
    with tempfile.TemporaryDirectory(prefix="cpython-objects-") as tmp:
        proc = subprocess.run(
            [sys.executable, str(program)], cwd=tmp, env=child_env(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT
        )
    if proc.returncode == 0:
        raise SystemExit(f"{program.name} succeeded: a case must fail")
    return proc.stdout


def main(argv: list[str]) -> int:
    wanted = set(argv)
    OUTPUTS.mkdir(exist_ok=True)
    for program in sorted(PROGRAMS.glob("*.py")):
        if wanted and program.stem not in wanted:
            continue
        text = run(program)
        (OUTPUTS / f"{program.stem}.txt").write_bytes(text)
        print(f"wrote outputs/{program.stem}.txt ({len(text)} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
