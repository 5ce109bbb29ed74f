#!/usr/bin/env python3
"""Benchmark leafexplain against baselines measured side by side: start-up, 100,000 records, big logs.

Usage: python bench/run.py [--quick] [--keep]

Generates its data under bench/data/ (git-ignored), runs every measurement of the performance
targets and prints one table. Times are medians of repeated runs, each interleaved with its
baseline so that both see the same machine load; ratios, not absolute times, are the targets.
Peak memory is the child's maximum resident set size (getrusage).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "bench" / "data"
PYTHON = sys.executable
LEAFEXPLAIN = str(Path(PYTHON).parent / "leafexplain")
CORPUS = ROOT / "tests" / "corpus" / "outputs"
RUNS = 7
RECORD_SIZES = (100, 1_000, 10_000, 100_000)
LOG_SIZES_MB = (1, 10, 100)
PANICS_IN_BIG_LOG = 200

# --- data -----------------------------------------------------------------------------------

NOUNS = [
    "tensor",
    "buffer",
    "shape",
    "kernel",
    "device",
    "stream",
    "handle",
    "graph",
    "node",
    "module",
    "record",
    "checkpoint",
    "optimizer",
    "batch",
    "layer",
]
VERBS = [
    "allocate",
    "resize",
    "broadcast",
    "reshape",
    "launch",
    "bind",
    "register",
    "flush",
    "load",
    "save",
    "encode",
    "decode",
    "merge",
    "split",
]
ADJ = ["invalid", "missing", "stale", "detached", "unaligned", "oversized", "negative", "empty", "duplicate", "foreign"]


def make_record(n: int, rng: random.Random) -> dict:
    noun, verb, adj = rng.choice(NOUNS), rng.choice(VERBS), rng.choice(ADJ)
    component = f"{rng.choice(NOUNS)}_{n:06d}"
    pattern = f"Cannot {verb} {adj} {noun} in {component}: expected {{}} but found {{}} (code {n})"
    message = pattern.replace("{}", str(rng.randint(1, 99)), 1).replace("{}", str(rng.randint(100, 999)), 1)
    prose = " ".join(rng.choice(NOUNS + VERBS + ADJ) for _ in range(60))
    record = {
        "id": f"{n:016x}", "repo": f"bench/{rng.choice(NOUNS)}-lib", "slug": f"bench-{n}",
        "errorCode": None, "errorMessage": message, "messagePattern": pattern,
        "errorType": "panic", "errorClass": None, "httpStatus": None, "severity": "error",
        "filePath": f"crates/{component}/src/lib.rs", "lineNumber": 42, "sourceCode": "",
        "sourceCodeStart": 27, "sourceCodeEnd": 62,
        "githubUrl": f"https://github.com/bench/lib/blob/{'a' * 40}/crates/{component}/src/lib.rs#L27-L62",
        "documentation": prose, "triggerScenarios": prose, "commonSituations": prose,
        "solutions": [prose[:120], prose[120:240]], "exampleFix": "// before\nx\n// after\nfn main() {}",
        "handlingStrategy": "validation", "validationCode": prose[:200], "typeGuard": prose[:200],
        "tryCatchPattern": prose[:200], "preventionTips": [prose[:100]], "tags": ["rust", noun, verb],
        "backgroundTag": noun, "analyzedSha": "a" * 40, "analyzedAt": "2026-11-30T00:00:00.000Z",
        "contentChangedAt": "2026-11-30T00:00:00.000Z", "schemaVersion": 2,
    }  # fmt: skip
    return {"record": record, "datasetVersion": "2026-11-30T00:00:00.000Z"}


def make_records() -> dict[int, Path]:
    rng = random.Random(7)
    lines = [json.dumps(make_record(n, rng)) + "\n" for n in range(max(RECORD_SIZES))]
    paths = {}
    for size in RECORD_SIZES:
        path = DATA / f"records-{size}.jsonl"
        if not path.exists():
            path.write_text("".join(lines[:size]))
        paths[size] = path
    return paths


def make_log(megabytes: int) -> Path:
    """Noise from a long test run with 200 real panics and tracebacks spread through it."""
    path = DATA / f"log-{megabytes}mb.txt"
    if path.exists():
        return path
    rng = random.Random(megabytes)
    errors = [
        (CORPUS / "rust" / "cargo-run-leaf.txt").read_text(),
        (CORPUS / "rust" / "cargo-test-three.txt").read_text(),
        (CORPUS / "python" / "json-decode.txt").read_text(),
        (CORPUS / "rust" / "cargo-run-unwrap.txt").read_text(),
    ]
    target = megabytes * 1_000_000
    every = target // PANICS_IN_BIG_LOG
    written, next_error = 0, every // 2
    with path.open("w") as out:
        while written < target:
            block = "".join(
                f"test suite::case_{rng.randint(0, 10**6)} ... ok ({rng.random():.3f}s) loss={rng.random():.5f}\n"
                for _ in range(200)
            )
            if written >= next_error:
                block += rng.choice(errors)
                next_error += every
            out.write(block)
            written += len(block)
    return path


# --- measuring ------------------------------------------------------------------------------


def run_once(cmd: list[str], env: dict[str, str], stdin: Path | None = None) -> tuple[float, int, int]:
    """Seconds, peak RSS in MB, and exit code of one run.

    stdout is a pipe, not /dev/null: GNU grep stops at its first match when it sees /dev/null.
    """
    wrapper = (
        "import resource, subprocess, sys, time\n"
        "stdin = open(sys.argv[1], 'rb') if sys.argv[1] else subprocess.DEVNULL\n"
        "t = time.perf_counter()\n"
        "code = subprocess.run(\n"
        "    sys.argv[2:], stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL\n"
        ").returncode\n"
        "print(time.perf_counter() - t, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, code)\n"
    )
    done = subprocess.run(
        [PYTHON, "-c", wrapper, str(stdin or ""), *cmd], env=env, capture_output=True, text=True, check=True
    )
    seconds, rss_kb, code = done.stdout.split()
    return float(seconds), int(rss_kb) // 1024, int(code)


def compare(cmd: list[str], baseline: list[str], env: dict[str, str], runs: int, stdin: Path | None = None) -> dict:
    """Median times of the command and its baseline, interleaved run by run."""
    ours, base, peak = [], [], 0
    for _ in range(runs):
        b = run_once(baseline, env, stdin)
        o = run_once(cmd, env, stdin)
        base.append(b[0])
        ours.append(o[0])
        peak = max(peak, o[1])
    return {"ours": statistics.median(ours), "base": statistics.median(base), "peak_mb": peak, "exit": o[2]}


ROWS: list[tuple[str, str, str, str, str]] = []


def row(name: str, figure: str, ratio: str, target: str, ok: bool | None) -> None:
    verdict = "" if ok is None else ("met" if ok else "MISSED")
    ROWS.append((name, figure, ratio, target, verdict))
    print(f"  {name}: {figure} {ratio} {verdict}", file=sys.stderr, flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description="leafexplain benchmark")
    parser.add_argument("--quick", action="store_true", help="3 runs each and no 100 MB log")
    parser.add_argument("--keep", action="store_true", help="keep bench/data for the next run")
    args = parser.parse_args()
    runs = 3 if args.quick else RUNS
    started = time.time()
    DATA.mkdir(parents=True, exist_ok=True)
    cache = DATA / "cache"
    shutil.rmtree(cache, ignore_errors=True)
    env = {**os.environ, "XDG_CACHE_HOME": str(cache), "XDG_DATA_HOME": str(DATA / "nodata")}
    env.pop("NO_COLOR", None)
    python_pass = [PYTHON, "-c", "pass"]
    panic = str(CORPUS / "rust" / "cargo-run-leaf.txt")
    print("generating data ...", file=sys.stderr, flush=True)
    record_files = make_records()
    log_sizes = LOG_SIZES_MB[:-1] if args.quick else LOG_SIZES_MB
    logs = {mb: make_log(mb) for mb in log_sizes}

    print("start-up ...", file=sys.stderr, flush=True)
    run_once([LEAFEXPLAIN, "--format", "json", "--file", panic], env)  # builds the bundled index
    for name, cmd, limit in (
        ("--version", [LEAFEXPLAIN, "--version"], 2.5),
        ("--help", [LEAFEXPLAIN, "--help"], 2.5),
        ("explain, bundled records, --format json", [LEAFEXPLAIN, "--format", "json", "--file", panic], 3.0),
        ("explain, bundled records, rich --color always", [LEAFEXPLAIN, "--color", "always", "--file", panic], 5.0),
    ):
        r = compare(cmd, python_pass, env, runs)
        ratio = r["ours"] / r["base"]
        row(
            name,
            f"{r['ours'] * 1000:.0f} ms (python -c pass {r['base'] * 1000:.0f} ms)",
            f"{ratio:.2f}x",
            f"<= {limit}x",
            ratio <= limit,
        )

    print("records ...", file=sys.stderr, flush=True)
    growth = []
    for size, path in record_files.items():
        cmd = [LEAFEXPLAIN, "--format", "json", "--records", str(path), "--file", panic]
        t0 = time.perf_counter()
        first = run_once(cmd, env)
        build = time.perf_counter() - t0
        r = compare(cmd, python_pass, env, runs)
        growth.append((size, build, r["ours"], r["base"], r["peak_mb"], first[1]))
    for size, build, ours, base, peak, build_peak in growth:
        label = f"{size:,} records"
        row(
            f"{label}: explain once indexed",
            f"{ours * 1000:.0f} ms, peak {peak} MB",
            f"{ours / base:.2f}x",
            "<= 10x, <= 250 MB" if size == 100_000 else "",
            (ours / base <= 10 and peak <= 250) if size == 100_000 else None,
        )
        row(
            f"{label}: first run, building the index",
            f"{build:.1f} s, peak {build_peak} MB",
            "",
            "<= 60 s" if size == 100_000 else "",
            build <= 60 if size == 100_000 else None,
        )

    print("logs ...", file=sys.stderr, flush=True)
    for mb, path in logs.items():
        cmd = [LEAFEXPLAIN, "--format", "json"]
        grep = ["grep", "-cE", "panicked at|Traceback"]
        r = compare(cmd, grep, env, max(3, runs // 2), stdin=path)
        ratio = r["ours"] / r["base"]
        is_target = mb == 100
        row(
            f"{mb} MB log, piped (200 panics in the 100 MB one)",
            f"{r['ours']:.2f} s (grep {r['base']:.2f} s), peak {r['peak_mb']} MB",
            f"{ratio:.1f}x",
            "<= 5x, <= 200 MB" if is_target else "",
            (ratio <= 5 and r["peak_mb"] <= 200) if is_target else None,
        )

    header = ("measurement", "figure", "ratio", "target", "")
    width = [max(len(r[i]) for r in [*ROWS, header]) for i in range(5)]
    print()
    for r in [header, tuple("-" * w for w in width), *ROWS]:
        print("| " + " | ".join(c.ljust(w) for c, w in zip(r, width, strict=True)) + " |")
    print(
        f"\n{len(ROWS)} rows in {time.time() - started:.0f} s; python {sys.version.split()[0]}, {os.cpu_count()} cores"
    )
    if not args.keep:
        shutil.rmtree(DATA, ignore_errors=True)


if __name__ == "__main__":
    main()
