"""Real pastes of TensorFlow, JAX-install and pydantic 1.x errors found by their records.

TensorFlow cannot be installed here (nor a jaxlib older than jax), so these records' programs do not run; a
paste from a public issue stands in for each program's output (tests/corpus/otherml_pasted/expected.json names
the issue); a pydantic 1.x paste checks the older wording a record lists in its messageVariants.
"""

from __future__ import annotations

import json

import pytest

from tests.conftest import CORPUS

FOLDER = CORPUS / "otherml_pasted"
EXPECTED = {k: v for k, v in json.loads((FOLDER / "expected.json").read_text()).items() if not k.startswith("_")}


def test_every_paste_has_an_expectation() -> None:
    assert {p.name for p in FOLDER.glob("*.txt")} == set(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_paste_is_explained_first_by_its_record(name: str, cli) -> None:
    result = cli("--format", "json", "--file", str(FOLDER / name))
    doc = json.loads(result.stdout)
    firsts = [e["matches"][0]["slug"] for e in doc["events"] if e["matches"]]
    assert EXPECTED[name]["record"] in firsts, (firsts, [e["message"][:80] for e in doc["events"]])


def test_every_tensorflow_record_has_a_paste() -> None:
    records = {p.stem for p in (FOLDER.parents[2] / "records" / "tensorflow" / "tensorflow").glob("*.json")}
    assert records <= {v["record"] for v in EXPECTED.values()}
