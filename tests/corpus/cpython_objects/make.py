"""Regenerate outputs/ by running every program in programs/ for real with this Python.

    python tests/corpus/cpython_objects/make.py                  # all cases
    python tests/corpus/cpython_objects/make.py feb_30 join_int  # only the named cases

Each program runs in an empty temporary folder (so nothing it looks for exists and nothing it writes lands
here), with PYTHONUNBUFFERED=1; the output is stdout and stderr together (`2>&1`), as a user piping it into
leafexplain would have it. A program that exits 0 is an error of the suite: every case must fail.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))  # run as a script from anywhere: the repository's root

from tests.corpus.failing_programs import regenerate

if __name__ == "__main__":
    raise SystemExit(regenerate(Path(__file__).resolve().parent, sys.argv[1:]))
