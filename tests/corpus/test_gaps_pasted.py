"""Real pastes of CPython and NumPy errors that this machine cannot produce, found by their records.

These records' programs cannot run here (Windows and macOS wordings, an extension wheel built for another
NumPy), so a paste from a public issue stands in for the program's output.
"""

from __future__ import annotations

import json

import pytest

from tests.conftest import CORPUS

FOLDER = CORPUS / "gaps_pasted"
EXPECTED = {k: v for k, v in json.loads((FOLDER / "expected.json").read_text()).items() if not k.startswith("_")}


def test_every_paste_has_an_expectation() -> None:
    assert {p.name for p in FOLDER.glob("*.txt")} == set(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_paste_is_explained_first_by_its_record(name: str, cli) -> None:
    result = cli("--format", "json", "--file", str(FOLDER / name))
    doc = json.loads(result.stdout)
    firsts = [e["matches"][0]["slug"] for e in doc["events"] if e["matches"]]
    assert EXPECTED[name]["record"] in firsts, (firsts, [e["message"][:80] for e in doc["events"]])
