"""An unwrapped error is explained by its cause: real panics (tools/make_corpus.py's unwrap causes) of std errors
whose Debug form has a record, behind `unwrap`, `expect`, a `main` that returns the error, another thread."""

from __future__ import annotations

from pathlib import Path

import pytest

from leafexplain import session
from tests.conftest import load_bundled_matcher

CAUSES = Path(__file__).parents[1] / "corpus" / "outputs" / "causes"
OUTPUTS = sorted(CAUSES.glob("*.txt"))
UNWRAP = "called-result-unwrap-on-an-err-value-parseinterror"  # the record of `Result::unwrap` on an `Err`


def test_the_causes_are_there() -> None:
    assert len(OUTPUTS) >= 16  # eight programs, each with and without a backtrace


@pytest.mark.parametrize("path", OUTPUTS, ids=lambda p: p.name)
def test_the_cause_explains_the_panic_and_the_unwrap_is_its_wrapper(path: Path) -> None:
    cause = path.name.split(".")[0]  # the file is named by the cause's record
    report = session.explain(path.read_text(encoding="utf-8"), load_bundled_matcher(), pasted=False)
    (finding,) = report.findings
    assert finding.best is not None and finding.best.record.slug == cause
    if "called `Result::unwrap()` on an `Err` value" in finding.event.message:
        assert finding.best.role == "payload"
        assert (finding.matches[1].record.slug, finding.matches[1].role) == (UNWRAP, "wrapper")
