"""Real pastes from public issues that stand in for records' programs this machine cannot run, each explained first
by its record.

A record whose program needs what is not here (the Hugging Face Hub, TensorFlow, Windows or macOS, an older
release or a wheel built for another NumPy) is checked on what a user pasted instead: each folder's
expected.json names, for every paste, its record and the issue it comes from.
"""

from __future__ import annotations

import json

import pytest

from leafexplain import session
from leafexplain.match import Matcher
from tests.conftest import CORPUS

SETS = ("gaps_pasted", "mlstack_pasted", "otherml_pasted")  # CPython and NumPy; HF, Keras, Lightning; TF, JAX, pydantic


def expected(folder: str) -> dict[str, dict[str, str]]:
    document = json.loads((CORPUS / folder / "expected.json").read_text(encoding="utf-8"))
    return {name: case for name, case in document.items() if not name.startswith("_")}


CASES = [(folder, name) for folder in SETS for name in sorted(expected(folder))]


@pytest.mark.parametrize("folder", SETS)
def test_every_paste_has_an_expectation(folder: str) -> None:
    assert {p.name for p in (CORPUS / folder).glob("*.txt")} == set(expected(folder))


@pytest.mark.parametrize(("folder", "name"), CASES)
def test_paste_is_explained_first_by_its_record(folder: str, name: str, bundled_matcher: Matcher) -> None:
    report = session.explain((CORPUS / folder / name).read_bytes(), bundled_matcher, pasted=True)
    firsts = [f.matches[0].record.slug for f in report.findings if f.matches]
    assert expected(folder)[name]["record"] in firsts, (firsts, [f.event.message[:80] for f in report.findings])


def test_every_tensorflow_record_has_a_paste() -> None:
    records = {p.stem for p in (CORPUS.parents[1] / "records" / "tensorflow" / "tensorflow").glob("*.json")}
    assert records and records <= {case["record"] for case in expected("otherml_pasted").values()}
