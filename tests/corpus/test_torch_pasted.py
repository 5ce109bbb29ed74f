"""Real pastes of PyTorch errors whose records' programs cannot run here (an MPS device, Windows, a newer GPU):
each one, as posted, is explained first by its record (tests/corpus/torch_pasted/manifest.json names the thread)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from leafexplain import session
from tests.conftest import load_bundled_matcher

PASTED = Path(__file__).parent / "torch_pasted"
MANIFEST = json.loads((PASTED / "manifest.json").read_text(encoding="utf-8"))["cases"]


@pytest.mark.parametrize("name", sorted(MANIFEST))
def test_paste_is_explained_first_by_its_record(name: str) -> None:
    report = session.explain((PASTED / name).read_text(encoding="utf-8"), load_bundled_matcher(), pasted=True)
    firsts = [f.matches[0].record.slug for f in report.findings if f.matches]
    assert MANIFEST[name]["record"] in firsts, (name, firsts)


def test_every_case_names_a_thread_and_a_record_that_exist() -> None:
    slugs = {p.stem for p in (Path(__file__).parents[2] / "records" / "pytorch" / "pytorch").glob("*.json")}
    for name, case in MANIFEST.items():
        assert (PASTED / name).is_file(), name
        assert case["url"].startswith("https://github.com/"), name
        assert case["record"] in slugs, name
