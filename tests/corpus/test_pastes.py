"""Real pastes from public issues (tests/corpus/pastes/batch1/): the rates the product promises, measured in-process.

Each case is text a person pasted, verbatim, with its source URL (tests/corpus/pastes/batch1/manifest.jsonl):
errors a record explains (positives), errors of libraries without records (negatives), and runs
with no error at all (green builds, passing tests, training and server logs). `tests/corpus/pastes/measure.py`
runs the same cases through the installed command and lists each miss.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from leafexplain import session
from leafexplain.match import Matcher
from leafexplain.models import Limits, Report
from tests.conftest import RECORDS

PASTES = Path(__file__).parent / "pastes" / "batch1"


def manifest(folder: Path) -> list[dict]:
    cases = [json.loads(line) for line in (folder / "manifest.jsonl").read_text(encoding="utf-8").splitlines() if line]
    return [{**case, "file": str(folder / case["file"])} for case in cases]


CASES = manifest(PASTES)
# Batch 2 (tests/corpus/pastes/batch2/): collected independently after batch 1 had tuned the matcher, a held-out
# check. First measured at positives 97/102, negatives 32/34, no-error 14/15; the two categories it
# showed (a compiler's prose, a printed Err value) were fixed for every paste, not for its cases.
HELD_OUT = manifest(Path(__file__).parent / "pastes" / "batch2")
# Batch 3 (tests/corpus/pastes/batch3/): collected after the index and matcher changes of the performance work, and
# after batch 2's fixes; first measured at positives 98/104, negatives 30/31, no-error 17/18; two categories it showed
# (an old panic glued to its test line, doctest's expected tracebacks) fixed for every paste, and numpy 1.17's
# wording added to its record's history (checked at v1.17.0).
THIRD = manifest(Path(__file__).parent / "pastes" / "batch3")
# Batch 4 (tests/corpus/pastes/batch4/): the shapes text arrives in: 60 real runs made here (torchrun ranks, pytest and
# cargo in colour, CI timestamp gutters, docker and kubectl prefixes, tqdm bars) and 14 public pastes;
# every case right when first measured.
FOURTH = manifest(Path(__file__).parent / "pastes" / "batch4")
# Batch 5 (tests/corpus/pastes/batch5/): public pastes in what the earlier batches lacked (burn, tokio, serde_json,
# Jupyter, Windows, older years); first measured at positives 54/57, negatives 14/15 (the one a label
# fix: CPython's own `type object ... has no attribute` message, which its record explains), no-error 8/8.
FIFTH = manifest(Path(__file__).parent / "pastes" / "batch5")
# Batch 6 (tests/corpus/pastes/batch6/): the errors a new user pastes first, 2017-2026, collected after every change
# above; first measured at positives 72/77, negatives 22/22, no-error 16/16 (every miss an error dropped:
# a message whose head was not pasted, a C++ `what():` cut short, torch 0.2's wording, a hand-retyped line).
SIXTH = manifest(Path(__file__).parent / "pastes" / "batch6")
# Batch 7 (tests/corpus/pastes/batch7/): 106 cases, 89 of them from repositories no earlier batch drew on, collected
# after batch 6's fixes; first measured at positives 76/78, negatives 17/17, no-error 11/11 (the misses: Python 2's
# `cannot concatenate` wording, a Rust panic raised through PyO3 as a Python PanicException).
SEVENTH = manifest(Path(__file__).parent / "pastes" / "batch7")
BATCHES = {
    "pastes2": HELD_OUT,
    "pastes3": THIRD,
    "pastes4": FOURTH,
    "pastes5": FIFTH,
    "pastes6": SIXTH,
    "pastes7": SEVENTH,
}
LATER = HELD_OUT + THIRD + FOURTH + FIFTH + SIXTH + SEVENTH


@pytest.fixture(scope="module")
def matcher() -> Matcher:
    from leafexplain.records import load_paths

    return Matcher(load_paths([str(RECORDS)]).records)


def explained_by(report: Report) -> list[str]:
    return [f.best.record.id for f in report.findings if f.best]


def outcome(case: dict, matcher: Matcher) -> bool:
    """Whether leafexplain does with this paste what a person needs."""
    report = session.explain(Path(case["file"]).read_bytes(), matcher, Limits(), pasted=True)
    if case["kind"] == "positive":
        return case["record"] in explained_by(report)  # the right record, first for its event
    if case["kind"] == "negative":
        return not explained_by(report) or case.get("generic_ok", False)
    return report.findings == () and report.exit_status == 0  # no error at all: nothing, exit 0


def rate(kind: str, matcher: Matcher, cases: list[dict] = CASES) -> tuple[float, list[str]]:
    chosen = [c for c in cases if c["kind"] == kind and (kind != "positive" or c["record"])]
    misses = [c["id"] for c in chosen if not outcome(c, matcher)]
    return 1 - len(misses) / len(chosen), misses


def test_the_corpus_is_what_it_says() -> None:
    kinds = {kind: sum(c["kind"] == kind for c in CASES) for kind in ("positive", "negative", "no-error")}
    assert kinds["positive"] >= 250 and kinds["negative"] >= 60 and kinds["no-error"] >= 30
    # From a public page, or produced by a real run on this machine ("local").
    assert all(c["url"].startswith("https://") or c["url"] == "local" or c["kind"] == "no-error" for c in CASES)
    assert {c["year"] for c in CASES if c["year"]} >= set(range(2017, 2026))
    assert all(Path(c["file"]).is_file() for c in CASES + HELD_OUT + THIRD)
    assert not {c["url"] for c in HELD_OUT if c["url"] != "local"} & {c["url"] for c in CASES}
    assert not {c["url"] for c in THIRD if c["url"] != "local"} & {c["url"] for c in CASES + HELD_OUT}
    assert not {c["url"] for c in FOURTH if c["url"] != "local"} & {c["url"] for c in CASES + HELD_OUT + THIRD}
    assert not {c["url"] for c in FIFTH} & {c["url"] for c in CASES + HELD_OUT + THIRD + FOURTH}
    assert all(Path(c["file"]).is_file() for c in FOURTH + FIFTH)


def test_pastes_with_a_record_get_the_right_one(matcher: Matcher) -> None:
    share, misses = rate("positive", matcher)
    assert share >= 0.97, misses


def test_pastes_without_a_record_stay_unexplained(matcher: Matcher) -> None:
    share, misses = rate("negative", matcher)
    assert share >= 0.95, misses


def test_runs_without_an_error_give_no_event(matcher: Matcher) -> None:
    share, misses = rate("no-error", matcher)
    assert share >= 0.95, misses


def test_wordings_no_record_lists_are_still_recognised(matcher: Matcher) -> None:
    """Generalisation, measured: with every record's message history taken away, old and new wordings
    must still find their record by the weighted word score alone (the held-out pastes will hold
    wordings the history does not list), and no negative may start to match."""
    bare = Matcher([r._replace(messageVariants=()) for r in matcher.records])
    positives, misses = rate("positive", bare)
    assert positives >= 0.88, misses
    negatives, wrong = rate("negative", bare)
    assert negatives >= 0.95, wrong


@pytest.mark.parametrize("batch", sorted(BATCHES))
@pytest.mark.parametrize(("kind", "floor"), [("positive", 0.93), ("negative", 0.94), ("no-error", 0.93)])
def test_the_held_out_batches(matcher: Matcher, batch: str, kind: str, floor: float) -> None:
    share, misses = rate(kind, matcher, BATCHES[batch])
    assert share >= floor, misses


@pytest.mark.parametrize("threshold", [50.0, None, 95.0])
def test_an_event_kept_only_when_explained_gets_the_same_matches_without_scoring_hopeless_records(
    matcher: Matcher, threshold: float | None
) -> None:
    """A tentative event (a paragraph of a paste, a warning) is kept only for its matches, so the records
    whose fuzzy score could not reach the cut-off are not scored: the matches stay what scoring all gives."""
    from leafexplain.intake.collect import collect

    tentative = [
        event
        for case in CASES + LATER
        for event in collect(Path(case["file"]).read_bytes(), Limits(), pasted=True).events
        if event.tentative
    ]
    assert len(tentative) > 100
    for event in tentative:
        everything = matcher.match(event, threshold=threshold)
        wanted = matcher.match(event, threshold=threshold, matches_only=True)
        assert wanted.matches == everything.matches, event.message[:200]
