"""Regenerate outputs/ by running every program in programs/ for real with this Python (3.11 here).

    python tests/corpus/cpython_syntax/make.py                 # all cases
    python tests/corpus/cpython_syntax/make.py except_comma    # only the named cases (program names without .py)

Each program is compiled and run by `sys.executable` from an empty temporary folder; every one of them fails
to compile, with a SyntaxError, IndentationError or TabError. The output file is what the run printed,
stdout and stderr together (`2>&1`), as a user piping it into leafexplain would have it.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))  # run as a script from anywhere: the repository's root

from tests.corpus.failing_programs import regenerate

if __name__ == "__main__":
    raise SystemExit(regenerate(Path(__file__).resolve().parent, sys.argv[1:]))
