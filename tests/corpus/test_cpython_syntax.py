"""Held-out check of CPython's compile-time errors: real python3.11 output of each SyntaxError family, explained.

tests/corpus/cpython_syntax/ holds short programs written the way a user's code looks (a config dict, an argparse
set-up, an async handler), independently of the records' own examples, each failing to compile with one
SyntaxError, IndentationError or TabError family; `outputs/` is what each printed when run for real (`make.py`
runs them again). `expected.json` names, for each output, the record whose documented error it is, or null for a
family that has no record (`expected ':'`, `expected '('`: their literal text is shorter than the 12 characters
a record's pattern needs). The floor is what was measured when the suite was written.
"""

from __future__ import annotations

import json
from pathlib import Path

from leafexplain import session
from leafexplain.match import Matcher
from leafexplain.models import Report
from tests.conftest import bundled_records

HERE = Path(__file__).parent / "cpython_syntax"
EXPECTED: dict[str, str | None] = json.loads((HERE / "expected.json").read_text(encoding="utf-8"))
FLOOR = 0.99  # 104 of 104 measured (100%), once the parser's `expected '{}'` had its record


def explain(name: str, matcher: Matcher) -> Report:
    return session.explain((HERE / "outputs" / name).read_bytes(), matcher, pasted=False)


def top(report: Report) -> list[str]:
    return [f.matches[0].record.id for f in report.findings if f.matches]


def test_every_output_has_its_expectation_and_every_record_exists() -> None:
    outputs = {p.name for p in (HERE / "outputs").glob("*.txt")}
    programs = {p.stem + ".txt" for p in (HERE / "programs").glob("*.py")}
    assert outputs == set(EXPECTED) == programs
    known = {r.id for r in bundled_records().records}
    named = {r for r in EXPECTED.values() if r is not None}
    assert named <= known, sorted(named - known)
    assert len(EXPECTED) >= 80


def test_each_output_is_one_compile_error_event(bundled_matcher: Matcher) -> None:
    for name in EXPECTED:
        report = explain(name, bundled_matcher)
        kinds = [f.event.error_type for f in report.findings]
        assert kinds and set(kinds) <= {"SyntaxError", "IndentationError", "TabError"}, (name, kinds)


def test_syntax_errors_are_explained_by_the_right_record(bundled_matcher: Matcher) -> None:
    misses = []
    for name, record in sorted(EXPECTED.items()):
        got = top(explain(name, bundled_matcher))
        if record is None or record not in got:
            misses.append(f"{name}: want {record}, got {got or 'no match'}")
    share = 1 - len(misses) / len(EXPECTED)
    assert share >= FLOOR, f"{len(EXPECTED) - len(misses)} of {len(EXPECTED)} ({share:.1%}):\n" + "\n".join(misses)
