"""The round trip of compile records, run on the test records of tests/data/rustc-records (the bundled ones run
in tests/records/test_roundtrip.py): "before" fails to compile with the record's code and is explained by it,
"after" compiles and runs clean."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from leafexplain import session
from leafexplain.match import Matcher
from leafexplain.records import load_paths
from tests.records.roundtrip.programs import compile_problem, runner
from tests.records.test_roundtrip import explains

TEST_RECORDS = load_paths([str(Path(__file__).parents[1] / "data" / "rustc-records")]).records


@pytest.mark.skipif(shutil.which("rustc") is None, reason="rustc is not installed")
@pytest.mark.parametrize("record", TEST_RECORDS, ids=lambda r: r.slug)
def test_a_compile_records_programs(record, tmp_path: Path) -> None:
    with runner(tmp_path) as run:
        before, after = run.program(record, "before"), run.program(record, "after")
    assert compile_problem(record, before, after) is None
    report = session.explain(before.output, Matcher(TEST_RECORDS), pasted=False)
    assert explains(report, record), [(f.event.code, f.event.message) for f in report.findings]
    [finding] = report.findings
    assert finding.best.method == "regex" and finding.event.code == record.errorCode
