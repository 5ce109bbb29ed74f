"""A held-out check of CPython's object and argument errors: real python3.11 output explained by the right record.

tests/corpus/cpython_objects/ holds short programs written the way user code looks, each raising one error of
the TypeError / AttributeError / NameError / ValueError / IndexError / KeyError / ImportError / RecursionError
families, and what they printed when run for real (`make.py` runs them again). `expected.json` names, for each
output, the record whose documented error it is. When the suite was written all 101 were explained by that
record; the floor leaves room for a case or two whose output changes with the machine.
"""

from __future__ import annotations

import json
from pathlib import Path

from leafexplain import session
from leafexplain.match import Matcher
from leafexplain.models import Report
from tests.conftest import bundled_records

HERE = Path(__file__).parent / "cpython_objects"
EXPECTED: dict[str, str] = json.loads((HERE / "expected.json").read_text(encoding="utf-8"))
FLOOR = 0.97  # measured: 101 of 101


def explain(name: str, matcher: Matcher) -> Report:
    return session.explain((HERE / "outputs" / name).read_bytes(), matcher, pasted=False)


def hit(report: Report, record: str) -> bool:
    """The record is the top match of some event of the output."""
    return any(f.matches and f.matches[0].record.id == record for f in report.findings)


def describe(report: Report) -> str:
    events = [
        f"{f.event.error_type}: {f.event.message[:80]!r} -> {[m.record.slug for m in f.matches[:2]] or 'no match'}"
        for f in report.findings
    ]
    return "; ".join(events) or "no event"


def test_every_output_has_its_program_and_record() -> None:
    outputs = {p.name for p in (HERE / "outputs").glob("*.txt")}
    programs = {f"{p.stem}.txt" for p in (HERE / "programs").glob("*.py")}
    assert outputs == set(EXPECTED) == programs, (sorted(outputs ^ set(EXPECTED)), sorted(programs ^ outputs))
    known = {r.id for r in bundled_records().records}
    assert set(EXPECTED.values()) <= known, sorted(set(EXPECTED.values()) - known)
    assert len(EXPECTED) >= 80


def test_cpython_object_errors_are_explained_by_the_right_record(bundled_matcher: Matcher) -> None:
    misses = []
    for name, record in sorted(EXPECTED.items()):
        report = explain(name, bundled_matcher)
        if not hit(report, record):
            misses.append(f"{name}: want {record}, got {describe(report)}")
    share = 1 - len(misses) / len(EXPECTED)
    assert share >= FLOOR, f"{len(EXPECTED) - len(misses)} of {len(EXPECTED)} ({share:.0%}):\n" + "\n".join(misses)
