#!/usr/bin/env python3
"""Measure the bundled records on a traceback explainer's own test programs: real CPython errors, run here.

Usage: python tools/measure_peer.py SOURCE [--python python3.11] [--list class-level,unknown,similar]

SOURCE is a checkout of friendly-traceback (github.com/friendly-traceback/friendly-traceback): its tests/syntax/
files each fail to compile with one SyntaxError (run as scripts), and its tests/runtime/ functions each raise
runtime errors, caught and handed to the explainer (here a stand-in module records the traceback instead). Nothing
of that project is kept in this repository: the programs are run from SOURCE and their tracebacks written to a
temporary folder, then explained as `leafexplain` explains a program's output (`pasted=False`).

Each traceback is judged by the top match of its last event: `specific` (a record of the message), `class-level`
(a record of the class alone), `similar` (a specific record found only by words in common, to be reviewed by
hand), or `unknown` / `no-event`. docs/records.md keeps the figures.
"""

from __future__ import annotations

import argparse
import collections
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

# Runs in the chosen interpreter: imports each tests/runtime module with a stand-in `friendly_traceback` whose
# explain_traceback keeps the traceback being handled, calls every test function, and writes each traceback kept.
RUNTIME_DRIVER = r"""
import contextlib, importlib.util, io, sys, traceback, types
from pathlib import Path
source, out = Path(sys.argv[1]), Path(sys.argv[2])
kept = []
stand_in = types.ModuleType("friendly_traceback")
stand_in.explain_traceback = lambda redirect=None: kept.append(traceback.format_exc())
stand_in.get_output = lambda *a, **k: kept[-1] if kept else ""
stand_in.get_lang = lambda: "none"  # the peer's own English checks are skipped
stand_in._writing_docs = False
stand_in.set_lang = stand_in.set_formatter = lambda *a, **k: None
sys.modules["friendly_traceback"] = stand_in
for path in sorted((source / "tests" / "runtime").glob("test_*.py")):
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except Exception as error:
        print(f"{path.name}: not imported ({error})", file=sys.stderr)
        continue
    for name in sorted(n for n in dir(module) if n.startswith("test_")):
        before = len(kept)
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            try:
                getattr(module, name)()
            except BaseException:
                pass  # the peer's assertions about its own output
        for n, text in enumerate(kept[before:]):
            (out / f"rt-{path.stem[5:]}-{name[5:]}-{n}.txt").write_text(text, encoding="utf-8")
"""


def run_programs(source: Path, python: str, out: Path) -> None:
    """Each program's traceback, as a file in `out`."""
    subprocess.run([python, "-c", RUNTIME_DRIVER, str(source), str(out)], cwd=source / "tests", check=True)
    for program in sorted((source / "tests" / "syntax").glob("*.py")):
        if program.name == "__init__.py":
            continue
        done = subprocess.run([python, str(program)], capture_output=True, text=True, cwd=program.parent, timeout=30)
        if done.returncode and "Error" in done.stderr:
            (out / f"sx-{program.stem}.txt").write_text(done.stderr, encoding="utf-8")


def judge(out: Path) -> list[tuple[str, str, str, str]]:
    from leafexplain import session
    from leafexplain.models import Limits
    from leafexplain.records.patterns import placeholder_only
    from tests.conftest import load_bundled_matcher

    matcher = load_bundled_matcher()
    rows = []
    for path in sorted(out.glob("*.txt")):
        report = session.explain(path.read_bytes(), matcher, Limits(), pasted=False)
        if not report.findings:
            rows.append((path.name, "no-event", "", ""))
            continue
        last = report.findings[-1]
        event = f"{last.event.error_type}: {last.event.message[:100]}".replace("\n", " / ")
        if last.best is None:
            rows.append((path.name, "unknown", "", event))
        elif placeholder_only(last.best.record.messagePattern):
            rows.append((path.name, "class-level", last.best.record.slug, event))
        elif last.best.method == "fuzzy":
            rows.append((path.name, "similar", last.best.record.slug, event))
        else:
            rows.append((path.name, "specific", last.best.record.slug, event))
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("source", type=Path, help="a friendly-traceback checkout")
    parser.add_argument("--python", default="python3.11", help="the interpreter whose errors are measured")
    parser.add_argument("--list", default="", help="outcomes to list case by case, comma-separated")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        run_programs(args.source, args.python, Path(tmp))
        rows = judge(Path(tmp))
    found = collections.Counter(outcome for _, outcome, _, _ in rows)
    print(f"{len(rows)} tracebacks ({args.python})")
    for outcome in ("specific", "similar", "class-level", "unknown", "no-event"):
        print(f"  {outcome:12} {found[outcome]:4}  {found[outcome] / max(len(rows), 1):6.1%}")
    listed = set(filter(None, args.list.split(",")))
    for name, outcome, slug, event in rows:
        if outcome in listed:
            print(f"{outcome:12} {name:55} {slug:52} {event}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
