"""The round trip of every record that can run here: its "before" program, run for real, fails with an
output that leafexplain explains by that very record; its "after" program runs clean.

It runs every program (about five minutes with torch installed), so it is a step of its own in CI:
`LEAFEXPLAIN_ROUNDTRIP=1 python -m pytest tests/records/test_roundtrip.py`. Records that cannot run here are
listed in tests/records/roundtrip/skip/ with the reason (a GPU, several processes, crates from crates.io).
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor

import pytest

from leafexplain import session
from leafexplain.models import Record, Report
from tests.conftest import bundled_records, load_bundled_matcher
from tests.records.roundtrip.programs import Ran, compile_problem, parts, runner, skip_reasons, why_not_runnable

pytestmark = pytest.mark.skipif(
    not os.environ.get("LEAFEXPLAIN_ROUNDTRIP"), reason="runs every record's programs: set LEAFEXPLAIN_ROUNDTRIP=1"
)
ALL = bundled_records().records
SKIPPED = skip_reasons()
RUNNABLE = [r for r in ALL if why_not_runnable(r) is None and r.id not in SKIPPED]


def explains(report: Report, record: Record) -> bool:
    """The record explains an event first, or second as the wrapper of a more specific error inside it."""
    for finding in report.findings:
        first = finding.matches[:1]
        wrapper = [c for c in finding.matches[1:2] if c.role == "wrapper"]
        if any(c.record.id == record.id for c in (*first, *wrapper)):
            return True
    return False


@pytest.fixture(scope="module")
def ran() -> dict[str, tuple[Ran, Ran]]:
    results: dict[str, tuple[Ran, Ran]] = {}
    with runner() as run:
        plain = [r for r in RUNNABLE if r.repo != "pytorch/pytorch"]
        with ThreadPoolExecutor(max_workers=4) as pool:
            both = pool.map(lambda r: (run.program(r, "before"), run.program(r, "after")), plain)
            results.update(zip((r.id for r in plain), both, strict=True))
        for record in (r for r in RUNNABLE if r.repo == "pytorch/pytorch"):  # one torch process, in turn
            results[record.id] = (run.program(record, "before"), run.program(record, "after"))
    return results


def test_every_record_runs_or_says_why_not() -> None:
    for record in ALL:
        before, after = parts(record)
        assert before.strip() and after.strip(), f"{record.slug}: exampleFix needs both parts"
        reason = SKIPPED.get(record.id) or why_not_runnable(record)
        assert record in RUNNABLE or reason, record.slug
    assert not set(SKIPPED) - {r.id for r in ALL}, "skip files name records that do not exist"
    assert len(RUNNABLE) >= 250


def test_before_fails_with_the_records_own_error(ran: dict[str, tuple[Ran, Ran]]) -> None:
    matcher = load_bundled_matcher()
    missed = []
    for record in RUNNABLE:
        before, _ = ran[record.id]
        report = session.explain(before.output, matcher, pasted=False)
        if not explains(report, record):
            got = [(f.event.message[:60], f.best.record.slug if f.best else None) for f in report.findings]
            missed.append(f"{record.slug}: exit {before.code}, {got or before.output[-300:]}")
    assert len(missed) <= 0.05 * len(RUNNABLE), "\n".join(missed)


def test_compile_records_fail_with_their_code_and_are_explained_by_themselves(ran: dict[str, tuple[Ran, Ran]]) -> None:
    """A compile record's "before" fails to compile with exactly its error code, and that output is explained by
    the record; its "after" compiles and runs clean. No tolerance: rustc says the same on every machine."""
    matcher = load_bundled_matcher()
    problems = []
    for record in (r for r in RUNNABLE if r.errorType == "compile"):
        before, after = ran[record.id]
        problem = compile_problem(record, before, after)
        if problem is None and not explains(session.explain(before.output, matcher, pasted=False), record):
            problem = f"{record.slug}: its output is not explained by it"
        problems.append(problem)
    assert [p for p in problems if p] == []


def test_after_runs_clean(ran: dict[str, tuple[Ran, Ran]]) -> None:
    after = {r.id: ran[r.id][1] for r in RUNNABLE}
    failed = [f"{r.slug}: exit {after[r.id].code}: {after[r.id].output[-300:]}" for r in RUNNABLE if after[r.id].code]
    assert len(failed) <= 0.02 * len(RUNNABLE), "\n".join(failed)
