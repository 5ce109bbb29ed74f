"""Regenerate outputs/ by running every program in programs/ for real with this Python (3.11 here).

    python tests/corpus/cpython_syntax/make.py                 # all cases
    python tests/corpus/cpython_syntax/make.py except_comma    # only the named cases (program names without .py)

Each program is compiled and run by `sys.executable` from an empty temporary folder; every one of them fails
to compile, with a SyntaxError, IndentationError or TabError. The output file is what the run printed,
stdout and stderr together (`2>&1`), as a user piping it into leafexplain would have it.
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


def run(program: Path) -> bytes:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONSTARTUP")}
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    with tempfile.TemporaryDirectory(prefix="cpython-syntax-") as tmp:
        proc = subprocess.run(
            [sys.executable, str(program)], cwd=tmp, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
        )
    if proc.returncode == 0:
        raise SystemExit(f"{program.name} ran clean: every case must fail")
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
