#!/usr/bin/env python3
"""Hostile inputs at full size: time and peak memory of `leafexplain` on each, in a table.

Usage: python bench/hostile.py [--keep]

The test suite runs the same shapes smaller (tests/hostile/test_hostile_input.py); this runs the issue's
sizes: a 1 GB log, a 50 MB single line, a 1 GB line with no newline at all, logs where every
line is an error, at two sizes to show that time grows linearly, and 20 MB of one error line
repeated (read by `explain` and by `run`). Data goes to bench/data/hostile/.

    python bench/hostile.py --only repeated     # the cases whose name starts with this
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "bench" / "data" / "hostile"
LEAFEXPLAIN = str(Path(sys.executable).parent / "leafexplain")
TRACEBACK = (
    b'Traceback (most recent call last):\n  File "train.py", line 3, in <module>\n'
    b"RuntimeError: element 0 of tensors does not require grad and does not have a grad_fn\n"
)
MEASURE = """
import resource, subprocess, sys, time
with open(sys.argv[1], "rb") as stdin:
    start = time.perf_counter()
    done = subprocess.run(sys.argv[2:], stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    took = time.perf_counter() - start
print(done.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, took, done.stderr.count(b"\\n"))
"""


def write(path: Path, pieces: list[tuple[bytes, int]]) -> None:
    """Each (bytes, times) written in 1 MB blocks."""
    with path.open("wb") as out:
        for piece, times in pieces:
            per_block = max(1, (1 << 20) // max(len(piece), 1))
            while times > 0:
                n = min(per_block, times)
                out.write(piece * n)
                times -= n


# One error, repeated to fill the file: a line, a whole traceback, a panic with its hint.
REPEATED = {
    "line": b"RuntimeError: element 0 of tensors does not require grad and does not have a grad_fn\n",
    "traceback.txt": (
        b"Traceback (most recent call last):\n"
        b'  File "train.py", line 9, in <module>\n'
        b"    loss.backward()\n"
        b"RuntimeError: element 0 of tensors does not require grad and does not have a grad_fn\n"
    ),
    "panic.txt": (
        b"thread 'main' panicked at src/main.rs:4:26:\n"
        b"index out of bounds: the len is 3 but the index is 5\n"
        b"note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n"
    ),
}


def make(name: str) -> Path:
    path = DATA / name
    if path.exists():
        return path
    line = b"2026-11-30T10:15:00Z step 1234 loss 0.1234 lr 0.001 nothing to see here at all\n"
    if name == "log-1gb.txt":
        block = [(line, 100_000), (TRACEBACK, 1)]
        write(path, block * (1024 // 8))
    elif name == "log-256mb.txt":
        write(path, [(line, 100_000), (TRACEBACK, 1)] * 32)
    elif name == "line-50mb.txt":
        write(path, [(b"ValueError: ", 1), (b"x", 50 << 20), (b"\n", 1), (TRACEBACK, 1)])
    elif name == "line-1gb-no-newline.bin":
        with path.open("wb") as out:
            out.truncate(1 << 30)  # sparse: a gigabyte of NUL bytes without a newline
    elif name.startswith("repeated-"):
        mb = int(name.split("-")[1].removesuffix(".txt").removesuffix("mb"))
        error = REPEATED[name.split("-", 2)[2] if name.count("-") > 1 else "line"]
        write(path, [(error, (mb << 20) // len(error))])
    elif name.startswith("dense-"):
        mb = int(name.split("-")[1].removesuffix("mb.txt"))
        lines = (mb << 20) // 37  # each line below is 37 bytes
        with path.open("wb") as out:
            for start in range(0, lines, 100_000):
                stop = min(start + 100_000, lines)
                out.write(b"".join(b"ValueError: value %08d is not valid\n" % n for n in range(start, stop)))
    return path


def measure(path: Path, env: dict[str, str], run: bool = False) -> tuple[int, int, float, int]:
    """`leafexplain` reading the file on stdin, or (`run`) `leafexplain run -- cat FILE`."""
    command = (
        [LEAFEXPLAIN, "run", "--format", "json", "--", "cat", str(path)] if run else [LEAFEXPLAIN, "--format", "json"]
    )
    done = subprocess.run([sys.executable, "-c", MEASURE, str(path), *command], capture_output=True, env=env)
    code, peak, took, warnings = done.stdout.split()
    return int(code), int(peak), float(took), int(warnings)


ADVERSARIAL = [
    ("{}a{}a{}a{}a{}a{}a{}a{}a{}b", "a"),
    ("{} x {} x {} x {} x {} y", "x "),
    ("{}  {}  {}  z", " "),
]
# The former compiler: the pattern's literal pieces joined by `(.*?)` wildcards, one backtracking regex.
OLD_REGEX = """
import re, sys
from leafexplain.records.patterns import split_pattern
regex = re.compile("(.*?)".join(re.escape(p) for p in split_pattern(sys.argv[1]) if p is not None), re.S)
regex.search(sys.argv[2] * int(sys.argv[3]))
"""


def patterns() -> None:
    """The linear matcher against the former `(.*?)` regex, on messages built to make it backtrack."""
    from leafexplain.records.patterns import compile_pattern

    print(f"\n{'pattern':<34} {'message':>14} {'linear':>9} {'wildcard regex':>16}")
    for pattern, unit in ADVERSARIAL:
        for times in (1000, 4000):
            message = unit * times
            start = time.perf_counter()
            compile_pattern(pattern).search(message)
            linear = time.perf_counter() - start
            start = time.perf_counter()
            try:
                subprocess.run([sys.executable, "-c", OLD_REGEX, pattern, unit, str(times)], timeout=10, check=True)
                old = f"{time.perf_counter() - start:.2f}s"
            except subprocess.TimeoutExpired:
                old = "> 10s (killed)"
            print(f"{pattern:<34} {len(message):>8} chars {linear * 1000:>7.2f}ms {old:>16}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", action="store_true", help="keep the generated data")
    parser.add_argument("--only", default="", help="only the cases whose name starts with this")
    args = parser.parse_args()
    DATA.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "XDG_CACHE_HOME": str(DATA / "cache"), "XDG_DATA_HOME": str(DATA / "home")}
    cases = [
        "log-256mb.txt",
        "log-1gb.txt",
        "line-50mb.txt",
        "line-1gb-no-newline.bin",
        "dense-4mb.txt",
        "dense-8mb.txt",
        "repeated-20mb.txt",
        "repeated-20mb.txt run",
        "repeated-20mb-traceback.txt",
        "repeated-20mb-panic.txt",
        "repeated-20mb-panic.txt run",
    ]
    print(f"{'input':<26} {'size':>8} {'exit':>4} {'time':>8} {'MB/s':>7} {'peak RSS':>9} {'warnings':>8}")
    for case in (c for c in cases if c.startswith(args.only)):
        name, run = case.removesuffix(" run"), case.endswith(" run")
        path = make(name)
        size = path.stat().st_size
        measure(path, env)  # the first run builds the record index
        code, peak, took, warnings = measure(path, env, run)
        print(
            f"{case:<26} {size / 2**20:>6.0f}MB {code:>4} {took:>7.2f}s {size / 2**20 / took:>7.1f}"
            f" {peak / 1024:>7.0f}MB {warnings:>8}"
        )
    print(f"(Python {sys.version.split()[0]}, {os.cpu_count()} CPUs; peak RSS of the leafexplain process)")
    if not args.only:
        patterns()
    if not args.keep:
        shutil.rmtree(DATA)


if __name__ == "__main__":
    main()
