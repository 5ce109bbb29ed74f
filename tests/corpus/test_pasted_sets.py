"""Real pastes from public issues that stand in for records' programs this machine cannot run, each explained first
by its record (or second, as the wrapper of an error it carries).

A record whose program needs what is not here (the Hugging Face Hub, TensorFlow, Windows or macOS, an older
release or a wheel built for another NumPy) is checked on what a user pasted instead: each folder's
expected.json names, for every paste, its record and the issue it comes from (torch_pasted's manifest.json, the
same under `cases`).
"""

from __future__ import annotations

import json

import pytest

from leafexplain import session
from leafexplain.match import Matcher
from tests.conftest import CORPUS

# CPython and NumPy; HF, Keras, Lightning; TF, JAX, pydantic; PyTorch on MPS, CUDA, NCCL and Windows
SETS = ("gaps_pasted", "mlstack_pasted", "otherml_pasted", "torch_pasted")


def expected(folder: str) -> dict[str, dict[str, str]]:
    if (CORPUS / folder / "manifest.json").is_file():
        return json.loads((CORPUS / folder / "manifest.json").read_text(encoding="utf-8"))["cases"]
    document = json.loads((CORPUS / folder / "expected.json").read_text(encoding="utf-8"))
    return {name: case for name, case in document.items() if not name.startswith("_")}


CASES = [(folder, name) for folder in SETS for name in sorted(expected(folder))]


@pytest.mark.parametrize("folder", SETS)
def test_every_paste_has_an_expectation(folder: str) -> None:
    assert {p.name for p in (CORPUS / folder).glob("*.txt")} == set(expected(folder))


@pytest.mark.parametrize(("folder", "name"), CASES)
def test_paste_is_explained_first_by_its_record(folder: str, name: str, bundled_matcher: Matcher) -> None:
    report = session.explain((CORPUS / folder / name).read_bytes(), bundled_matcher, pasted=True)
    # First, or second as the wrapper of an error it carries that has a record of its own (the round trip's rule:
    # TensorFlow's `Could not load dynamic library` around glibc's `cannot open shared object file`).
    firsts = [c.record.slug for f in report.findings for c in f.matches[:2] if c is f.matches[0] or c.role == "wrapper"]
    assert expected(folder)[name]["record"] in firsts, (firsts, [f.event.message[:80] for f in report.findings])


@pytest.mark.parametrize("folder", SETS)
def test_every_case_names_an_issue_and_a_record_that_exist(folder: str) -> None:
    slugs = {p.stem for p in (CORPUS.parents[1] / "records").glob("*/*/*.json")}
    for name, case in expected(folder).items():
        assert (case.get("url") or case.get("source", "")).startswith("https://github.com/"), name
        assert case["record"] in slugs, name


def test_every_tensorflow_record_has_a_paste() -> None:
    records = {p.stem for p in (CORPUS.parents[1] / "records" / "tensorflow" / "tensorflow").glob("*.json")}
    assert records and records <= {case["record"] for case in expected("otherml_pasted").values()}
