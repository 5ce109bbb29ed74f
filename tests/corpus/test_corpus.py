"""Real outputs in, the right records out: the corpus table, driven through the installed command."""

from __future__ import annotations

import json

import pytest

from tests.conftest import CORPUS, OUTPUTS

EXPECTED = {k: v for k, v in json.loads((CORPUS / "expected.json").read_text()).items() if not k.startswith("_")}


def _path(name: str):
    return CORPUS / name if name.startswith("pasted/") else OUTPUTS / name


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_corpus_case(name: str, cli) -> None:
    case = EXPECTED[name]
    result = cli("--format", "json", "--file", str(_path(name)))
    assert "Traceback" not in result.stderr
    doc = json.loads(result.stdout)
    assert doc["schema"] == "leafexplain.explain/1"
    events = doc["events"]
    assert len(events) == len(case["events"]), [e["message"][:60] for e in events]
    for event, want in zip(events, case["events"], strict=True):
        for key in ("language", "error_type", "chained", "test", "thread", "count", "code"):
            if key in want:
                assert event[key] == want[key], (key, event[key])
        for fragment in want.get("fragments", []):
            assert fragment in event["message"]
        if "record" in want:
            slugs = [m["slug"] for m in event["matches"]]
            if want["record"] is None:
                assert slugs == [], slugs
            else:
                assert slugs and slugs[0] == want["record"], (slugs, event["near"][:1])
                best = event["matches"][0]
                if want.get("score") == 100:
                    assert (best["score"], best["method"]) == (100, "regex")
                elif want.get("score") == "fuzzy":
                    assert best["method"] == "fuzzy" and best["score"] >= doc["threshold"]
                if "wrapper" in want:  # an error carried inside another: the specific one first, then the wrapper
                    assert best["role"] == "payload" and event["matches"][1]["slug"] == want["wrapper"]
                    assert event["matches"][1]["role"] == "wrapper"
        if "user_frame" in want:
            assert event["user_frame"]["file"] == want["user_frame"]
        if "line" in want:
            assert event["user_frame"]["line"] == want["line"]
        if "location" in want:
            assert event["location"]["file"].endswith(want["location"])
        if "min_frames" in want:
            assert len(event["frames"]) >= want["min_frames"]
    if "exit" in case:
        assert result.returncode == case["exit"], result.stderr


def _record_outputs():
    return sorted(p for p in (OUTPUTS / "records").glob("*/*.txt"))


@pytest.mark.parametrize("path", _record_outputs(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_record_program_output_is_explained_by_its_record(path, cli) -> None:
    """Every real output of a record's trigger program (and burn's panic text) finds that record."""
    slug = path.name.split(".")[0]
    result = cli("--format", "json", "--file", str(path))
    doc = json.loads(result.stdout)
    # The record explains the event first, or second as the wrapper of a more specific error inside it.
    best = [
        m["slug"] for e in doc["events"] for m in e["matches"][:2] if m is e["matches"][0] or m["role"] == "wrapper"
    ]
    assert slug in best, (best, [e["message"][:80] for e in doc["events"]])
    assert result.returncode == 0


def test_corpus_holds_a_real_output_for_every_record_that_runs_here() -> None:
    """tools/make_corpus.py keeps the output of each runnable record's "before" program (burn's are laid out
    from its source, since burn cannot be built here)."""
    from tests.conftest import bundled_records
    from tests.records.roundtrip.programs import skip_reasons

    outputs = {p.name.split(".")[0] for p in (OUTPUTS / "records").glob("*/*.txt")}
    skipped = skip_reasons()
    runnable = {"python/cpython", "pytorch/pytorch", "numpy/numpy", "rust-lang/rust"}
    records = bundled_records().records
    missing = {r.slug for r in records if r.repo in runnable and r.id not in skipped} - outputs
    assert not missing
