#!/usr/bin/env python3
"""Benchmark leafexplain in a clean install, against the floor that install has: `python -c pass` in it.

Usage: python bench/run.py [--quick] [--keep] [--here] [--source CHECKOUT] [--only PART] [--records KIND]

By default it builds a fresh virtual environment under bench/data/ holding only leafexplain and
its runtime dependencies (`python -m venv`, then `pip install` of this checkout, no test extra)
and measures there: what `pip install` into a new venv gives a user. `--here` measures the
install of the interpreter running it instead, when that is a virtual environment holding nothing
else. Either way the interpreter measured must start as fast as a bare one (`python -I -S -c pass`
of its base installation, within INFLATION_LIMIT): an environment whose start-up is slowed by
unrelated packages flatters every ratio, and is refused.

Every figure is the median of repeated runs, each interleaved with its baseline (the venv's
`python -c pass`, or grep for logs) so that both see the same machine load; the targets are ratios.
Peak memory is the child's maximum resident set size (getrusage).
"""

from __future__ import annotations

import argparse
import importlib.metadata
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

import generate

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "bench" / "data"
PANIC = str(generate.CORPUS / "rust" / "cargo-run-leaf.txt")
# Raised in torch 2.13.0's own Python code: its files are read where the venv that ran it is on this machine.
TORCH = str(ROOT / "tests" / "corpus" / "raised" / "torch-register-hook.txt")
RUNS = 9
LOG_SIZES_MB = (1, 10, 100)
# `python -c pass` of the measured environment against a bare start of the same Python (`-I -S`):
# a fresh venv costs the site module and a .pth file or two; a shared environment costs far more.
INFLATION_LIMIT = 1.6
ROWS: list[tuple[str, ...]] = []


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
        [sys.executable, "-I", "-S", "-c", wrapper, str(stdin or ""), *cmd],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    seconds, rss_kb, code = done.stdout.split()
    return float(seconds), int(rss_kb) // 1024, int(code)


def compare(cmd: list[str], baseline: list[str], env: dict[str, str], runs: int, stdin: Path | None = None) -> dict:
    """Median times of the command and its baseline, interleaved run by run."""
    ours, base, peak, code = [], [], 0, 0
    for _ in range(runs):
        b = run_once(baseline, env, stdin)
        o = run_once(cmd, env, stdin)
        base.append(b[0])
        ours.append(o[0])
        peak, code = max(peak, o[1]), o[2]
    return {"ours": statistics.median(ours), "base": statistics.median(base), "peak_mb": peak, "exit": code}


def row(name: str, figure: str, ratio: str = "", target: str = "", ok: bool | None = None) -> None:
    verdict = "" if ok is None else ("met" if ok else "MISSED")
    ROWS.append((name, figure, ratio, target, verdict))
    print(f"  {name}: {figure} {ratio} {verdict}", file=sys.stderr, flush=True)


# --- the environment measured -----------------------------------------------------------------


def fresh_venv(source: Path) -> Path:
    """A new virtual environment with `source` and its runtime dependencies installed, nothing else."""
    venv = DATA / "venv"
    shutil.rmtree(venv, ignore_errors=True)
    base = getattr(sys, "_base_executable", sys.executable)
    subprocess.run([base, "-m", "venv", str(venv)], check=True)
    python = venv / "bin" / "python"
    pip = subprocess.run([str(python), "-m", "pip", "install", "-q", str(source)], capture_output=True, text=True)
    if pip.returncode:
        sys.exit(f"pip install {source} failed:\n{pip.stdout}{pip.stderr}")
    return python


def running_venv() -> Path:
    """The interpreter running this, when it is a virtual environment holding leafexplain and its
    dependencies only; else exits saying why."""
    if sys.prefix == sys.base_prefix:
        sys.exit("--here needs a virtual environment: this Python is not one")
    wanted = _closure("leafexplain") | {"pip", "setuptools", "wheel"}
    installed = {_name(d.metadata["Name"]) for d in importlib.metadata.distributions()}
    if not installed >= {"leafexplain"}:
        sys.exit("--here: leafexplain is not installed in this virtual environment")
    if installed - wanted:
        others = ", ".join(sorted(installed - wanted))
        sys.exit(f"--here: this virtual environment holds packages leafexplain does not need ({others}); "
                 "their start-up cost would flatter every ratio: run without --here for a fresh one")  # fmt: skip
    return Path(sys.executable)


def _name(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _closure(name: str) -> set[str]:
    """A distribution and everything it requires (extras left out), by normalised name."""
    seen: set[str] = set()
    todo = [name]
    while todo:
        current = _name(todo.pop())
        if current in seen:
            continue
        seen.add(current)
        try:
            requires = importlib.metadata.requires(current) or []
        except importlib.metadata.PackageNotFoundError:
            continue
        todo += [re.split(r"[ ;<>=!~\[(]", r, maxsplit=1)[0] for r in requires if "extra ==" not in r]
    return seen


def check_floor(python: Path, env: dict[str, str], runs: int) -> float:
    """`python -c pass` of the measured environment, after checking it is not inflated."""
    bare = [getattr(sys, "_base_executable", sys.executable), "-I", "-S", "-c", "pass"]
    r = compare([str(python), "-c", "pass"], bare, env, runs)
    ratio = r["ours"] / r["base"]
    mine = compare([sys.executable, "-c", "pass"], [str(python), "-c", "pass"], env, runs)
    print(
        f"python -c pass: {r['ours'] * 1000:.1f} ms in the measured environment ({python.parent.parent}), "
        f"{r['base'] * 1000:.1f} ms bare (-I -S), {mine['ours'] * 1000:.1f} ms in the interpreter running this",
        file=sys.stderr,
    )
    if ratio > INFLATION_LIMIT:
        sys.exit(
            f"refused: `python -c pass` takes {ratio:.1f}x a bare start here (limit {INFLATION_LIMIT}x); "
            "unrelated packages slow every start and would flatter every ratio"
        )
    return r["ours"]


# --- the measurements ---------------------------------------------------------------------------


def raised_in_library(python: str) -> Path:
    """A real traceback no record explains, raised in a library of the measured venv (rich, a dependency): its
    explanation reads the library's RECORD, METADATA and file (issue 25)."""
    program = "from rich.color import Color\nColor.parse('not-a-colour')\n"
    done = subprocess.run([python, "-c", program], capture_output=True, text=True)
    path = DATA / "raised-in-rich.txt"
    path.write_text(done.stderr)
    return path


def startup(leafexplain: str, python_pass: list[str], env: dict[str, str], runs: int) -> None:
    run_once([leafexplain, "--format", "json", "--file", PANIC], env)  # builds the bundled index
    unknown = str(raised_in_library(python_pass[0]))
    for name, cmd, limit in (
        ("--version", [leafexplain, "--version"], 1.6),
        ("--help", [leafexplain, "--help"], 2.5),
        ("explain, bundled records, --format json", [leafexplain, "--format", "json", "--file", PANIC], 2.8),
        ("explain, bundled records, rich --color always", [leafexplain, "--color", "always", "--file", PANIC], 3.3),
        (
            "explain, unknown error raised in a library, --format json",
            [leafexplain, "--format", "json", "--file", unknown],
            3.5,
        ),
        (
            "explain, unknown torch error (the battery's), --format json",
            [leafexplain, "--format", "json", "--file", TORCH],
            3.5,
        ),
    ):
        run_once(cmd, env)  # once untimed: its regexes' codes kept (leafexplain/regex.py), as after a user's first run
        r = compare(cmd, python_pass, env, runs)
        ratio = r["ours"] / r["base"]
        figure = f"{r['ours'] * 1000:.0f} ms (python -c pass {r['base'] * 1000:.1f} ms)"
        row(name, figure, f"{ratio:.2f}x", f"<= {limit}x", ratio <= limit)


# Of the 100,000-record kinds: explain's ratio to `python -c pass`, and the index build's peak (MB).
RECORD_TARGETS = {"100000": (None, 150), "realistic": (5.0, 150), "worst": (10.0, 150), "one-wording": (4.0, 130)}
RECORD_LABELS = {
    "realistic": "100,000 records, realistic wording",
    "worst": "100,000 records, shared vocabulary",
    "one-wording": "100,000 records, 10,000 sharing one wording",
}
SEARCH_QUERY = "non leaf tensor"  # the shared wording's words: 10,000 records hold them all


def records(leafexplain: str, files: dict[str, Path], python_pass: list[str], env: dict[str, str], runs: int) -> None:
    for key, path in files.items():
        cmd = [leafexplain, "--format", "json", "--records", str(path), "--file", PANIC]
        t0 = time.perf_counter()
        first = run_once(cmd, env)
        build = time.perf_counter() - t0
        r = compare(cmd, python_pass, env, runs)
        ratio = r["ours"] / r["base"]
        label = RECORD_LABELS[key] if key in RECORD_LABELS else f"{int(key):,} records"
        limit, build_mb = RECORD_TARGETS.get(key, (None, None))
        row(
            f"{label}: explain once indexed",
            f"{r['ours'] * 1000:.0f} ms, peak {r['peak_mb']} MB",
            f"{ratio:.2f}x",
            f"<= {limit}x" if limit else "",
            ratio <= limit if limit else None,
        )
        row(
            f"{label}: first run, building the index",
            f"{build:.1f} s, peak {first[1]} MB",
            "",
            f"<= 60 s, <= {build_mb} MB" if build_mb else "",
            (build <= 60 and first[1] <= build_mb) if build_mb else None,
        )
        if key == "one-wording":
            search = [leafexplain, "search", "--records", str(path), SEARCH_QUERY]
            seconds, peak, _ = run_once(search, env)
            row(f"{label}: leafexplain search '{SEARCH_QUERY}'", f"{seconds:.1f} s, peak {peak} MB")


def logs(leafexplain: str, sizes: tuple[int, ...], env: dict[str, str], runs: int) -> None:
    for mb in sizes:
        path = generate.make_log(DATA, mb)
        grep = ["grep", "-cE", "panicked at|Traceback"]
        r = compare([leafexplain, "--format", "json"], grep, env, max(3, runs // 2), stdin=path)
        ratio = r["ours"] / r["base"]
        target = mb == 100
        row(
            f"{mb} MB log, piped (200 real errors)",
            f"{r['ours']:.2f} s (grep {r['base']:.2f} s), peak {r['peak_mb']} MB",
            f"{ratio:.1f}x",
            "<= 5x grep, <= 200 MB" if target else "",
            (ratio <= 5 and r["peak_mb"] <= 200) if target else None,
        )


def peers(python: Path, python_pass: list[str], env: dict[str, str], runs: int) -> None:
    """Tools that explain errors too, measured the same way, where they are installed."""
    found = []
    if shutil.which("rustc"):
        found.append(("peer: rustc --explain E0308", ["rustc", "--explain", "E0308"]))
    rich_hook = "import rich.traceback; rich.traceback.install(); 1/0"  # rich is one of our dependencies
    found.append(("peer: rich's traceback hook, one exception", [str(python), "-c", rich_hook]))
    for name, cmd in (("tldr", ["tldr", "tar"]), ("thefuck", ["thefuck", "--version"])):
        if shutil.which(name):
            found.append((f"peer: {' '.join(cmd)}", cmd))
    for name, cmd in found:
        r = compare(cmd, python_pass, env, runs)
        row(
            name,
            f"{r['ours'] * 1000:.0f} ms (python -c pass {r['base'] * 1000:.1f} ms)",
            f"{r['ours'] / r['base']:.2f}x",
        )


def main() -> None:
    parser = argparse.ArgumentParser(description="leafexplain benchmark, in a clean install")
    parser.add_argument("--quick", action="store_true", help="3 runs each and no 100 MB log")
    parser.add_argument("--keep", action="store_true", help="keep bench/data (records, logs, the venv)")
    parser.add_argument("--here", action="store_true", help="measure this virtual environment's install")
    parser.add_argument("--source", type=Path, default=ROOT, help="the checkout to install (default: this one)")
    parser.add_argument("--only", choices=("startup", "records", "logs", "peers"), action="append")
    parser.add_argument(
        "--records",
        action="append",
        metavar="KIND",
        help="only these record files (100 ... 100000, realistic, worst, one-wording)",
    )
    args = parser.parse_args()
    runs = 3 if args.quick else RUNS
    started = time.time()
    DATA.mkdir(parents=True, exist_ok=True)
    cache = DATA / "cache"
    shutil.rmtree(cache, ignore_errors=True)
    env = {**os.environ, "XDG_CACHE_HOME": str(cache), "XDG_DATA_HOME": str(DATA / "nodata")}
    for name in ("NO_COLOR", "PYTHONPATH", "PYTHONSTARTUP", "VIRTUAL_ENV", "PYTHONDONTWRITEBYTECODE"):
        env.pop(name, None)
    print("the environment measured ...", file=sys.stderr, flush=True)
    python = running_venv() if args.here else fresh_venv(args.source.resolve())
    where = (
        f"run from the virtual environment {sys.prefix}" if args.here else "a fresh venv (pip install of the checkout)"
    )
    floor = check_floor(python, env, runs)
    leafexplain = str(python.parent / "leafexplain")
    python_pass = [str(python), "-c", "pass"]
    parts = set(args.only or ("startup", "records", "logs", "peers"))
    if "startup" in parts:
        print("start-up ...", file=sys.stderr, flush=True)
        startup(leafexplain, python_pass, env, runs)
    if "records" in parts:
        print("records ...", file=sys.stderr, flush=True)
        files = generate.make_records(DATA, args.records or ())
        kept = {k: v for k, v in files.items() if not args.records or k in args.records}
        records(leafexplain, kept, python_pass, env, runs)
    if "logs" in parts:
        print("logs ...", file=sys.stderr, flush=True)
        logs(leafexplain, LOG_SIZES_MB[:-1] if args.quick else LOG_SIZES_MB, env, runs)
    if "peers" in parts:
        print("peers ...", file=sys.stderr, flush=True)
        peers(python, python_pass, env, runs)

    header = ("measurement", "figure", "ratio", "target", "result")
    width = [max(len(r[i]) for r in [*ROWS, header]) for i in range(5)]
    print()
    for r in [header, tuple("-" * w for w in width), *ROWS]:
        print("| " + " | ".join(c.ljust(w) for c, w in zip(r, width, strict=True)) + " |")
    print(
        f"\n{len(ROWS)} rows in {time.time() - started:.0f} s; {where}; python {sys.version.split()[0]}, "
        f"{os.cpu_count()} cores; `python -c pass` there {floor * 1000:.1f} ms; medians of {runs} runs"
    )
    if not args.keep:
        shutil.rmtree(DATA, ignore_errors=True)


if __name__ == "__main__":
    main()
