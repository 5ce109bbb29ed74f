"""The random sample of real pastes (tests/corpus/sample/): what leafexplain makes of each real error, held to a floor.

The sample was drawn from public issues by fixed queries, in rank order, without regard to what leafexplain knows
(tests/corpus/sample/README.md says how); each case carries its truth (class, raising library, the message's
identifying part), not a record id. tests/corpus/sample/measure.py classes every case the same way as this test and
prints the figures; expected.json holds the figures when last measured. A change may raise them; none may lower
them, and no change may add a wrong answer.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

from leafexplain.match import Matcher

SAMPLE = Path(__file__).parent / "sample"
EXPECTED = json.loads((SAMPLE / "expected.json").read_text(encoding="utf-8"))


def _measure_module():
    spec = importlib.util.spec_from_file_location("sample_measure", SAMPLE / "measure.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


measure = _measure_module()
CASES = measure.cases()


def test_the_sample_is_what_it_says() -> None:
    """Each case a paste of its own, from a public issue no paste batch used, with its truth."""
    assert len(CASES) >= EXPECTED["cases"] and len({c["id"] for c in CASES}) == len(CASES)
    assert {Path(c["file"]).name for c in CASES} == {p.name for p in (SAMPLE / "cases").iterdir()}
    urls = [c["url"] for c in CASES]
    assert all(url.startswith("https://github.com/") for url in urls) and len(set(urls)) == len(urls)
    batches = {
        c["url"] for path in SAMPLE.parent.glob("pastes/batch*/manifest.jsonl") for c in measure.load_manifest(path)
    }
    assert not set(urls) & batches
    assert {c["group"] for c in CASES} <= set(measure.GROUPS)
    assert {c["kind"] for c in CASES} <= {"positive", "no-error"}
    assert all(c["record"] == "" for c in CASES), "the truth names no record: choosing records is what it must not do"


def test_the_sample_keeps_its_floor(bundled_matcher: Matcher) -> None:
    """No fewer explained (by the right record, or at least by its class), no more unknown, no more wrong."""
    results = measure.measure(bundled_matcher, CASES)
    got, floor = measure.counts(results), EXPECTED["counts"]
    listed = {o: sorted(r["id"] for r in results if r["outcome"] == o) for o in ("wrong", "no-event")}
    assert got["explained"] >= floor["explained"], got
    assert got["explained"] + got["class-level"] >= floor["explained"] + floor["class-level"], got
    assert got["wrong"] <= floor["wrong"], listed["wrong"]
    assert got["no-event"] <= floor["no-event"], listed["no-event"]
    assert got["unknown"] + got["no-event"] <= floor["unknown"] + floor["no-event"], got
    # The texts with no error in them stay without a finding.
    clean = sum(r["outcome"] == "clean" for r in results if r["kind"] == "no-error")
    assert clean >= EXPECTED["no_error"]["clean"], [r["id"] for r in results if r["outcome"] == "not-clean"]
