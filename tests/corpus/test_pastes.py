"""Real pastes from public issues, in batches (tests/corpus/pastes/batch1/ ... batch9/): what the product does
with each, measured in-process.

Each case is text a person pasted, verbatim, with its source URL (each batch's manifest.jsonl): errors a
record explains (positives), errors of libraries without records (negatives: left unexplained, or explained
only by a record of their class), and runs with no error at all (green builds, passing tests, training and
server logs). Each batch's expected.json holds what it got when last measured: its counts by kind, and by name
every case it misses. A case that starts to miss fails here, and so does a known miss that starts to be right
(take it out of the list). `tests/corpus/pastes/measure.py` runs the same cases through the installed command
and lists each miss.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from leafexplain import session
from leafexplain.match import Matcher
from leafexplain.models import Limits, Report

PASTES = Path(__file__).parent / "pastes"
KINDS = ("positive", "negative", "no-error")


def manifest(folder: Path) -> list[dict]:
    cases = [json.loads(line) for line in (folder / "manifest.jsonl").read_text(encoding="utf-8").splitlines() if line]
    return [{**case, "file": str(folder / case["file"])} for case in cases]


# Batch 1 tuned the matcher; each later one was collected afterwards as a held-out check (its expected.json's
# "about" says when, and what its first measure showed).
BATCHES = sorted((p.name for p in PASTES.glob("batch*")), key=lambda name: int(name.removeprefix("batch")))
CASES_OF = {batch: manifest(PASTES / batch) for batch in BATCHES}
EXPECTED = {batch: json.loads((PASTES / batch / "expected.json").read_text(encoding="utf-8")) for batch in BATCHES}
CASES = CASES_OF["batch1"]
EVERY_CASE = [case for batch in BATCHES for case in CASES_OF[batch]]


def explained_by(report: Report) -> list[str]:
    return [f.best.record.id for f in report.findings if f.best]


def outcome(case: dict, matcher: Matcher) -> bool:
    """Whether leafexplain does with this paste what a person needs."""
    report = session.explain(Path(case["file"]).read_bytes(), matcher, Limits(), pasted=True)
    if case["kind"] == "positive":
        return case["record"] in explained_by(report)  # the right record, first for its event
    if case["kind"] == "negative":
        # Its library has no record: nothing, or a record of its class alone (which says only what the class
        # means, and that it is class-level), is right; a record of another error's words is a wrong answer.
        specific = [f for f in report.findings if f.best and f.best.method != "class"]
        return not specific or case.get("generic_ok", False)
    return report.findings == () and report.exit_status == 0  # no error at all: nothing, exit 0


def misses(kind: str, matcher: Matcher, cases: list[dict]) -> tuple[int, list[str]]:
    """How many cases of this kind there are (positives with a record), and the ids of those it gets wrong."""
    chosen = [c for c in cases if c["kind"] == kind and (kind != "positive" or c["record"])]
    return len(chosen), sorted(c["id"] for c in chosen if not outcome(c, matcher))


def test_the_corpus_is_what_it_says() -> None:
    kinds = {kind: sum(c["kind"] == kind for c in CASES) for kind in KINDS}
    assert kinds["positive"] >= 250 and kinds["negative"] >= 60 and kinds["no-error"] >= 30
    assert {c["year"] for c in CASES if c["year"]} >= set(range(2017, 2026))
    assert len(BATCHES) == 10, BATCHES
    seen_urls: set[str] = set()
    for batch in BATCHES:
        cases = CASES_OF[batch]
        # From a public page, or produced by a real run on this machine ("local").
        assert all(c["url"].startswith("https://") or c["url"] == "local" or c["kind"] == "no-error" for c in cases)
        assert all(Path(c["file"]).is_file() for c in cases), batch
        # Every case file listed once, under an id of its own in the batch (a known miss is named by its id).
        listed = {Path(c["file"]).name for c in cases}
        assert len(listed) == len(cases) and listed == {p.name for p in (PASTES / batch / "cases").iterdir()}, batch
        assert len({c["id"] for c in cases}) == len(cases), batch
        # A held-out batch shares no source with the batches before it.
        urls = {c["url"] for c in cases if c["url"] != "local"}
        assert not urls & seen_urls, (batch, sorted(urls & seen_urls)[:5])
        seen_urls |= urls
        # Its expected.json counts what its manifest holds.
        expected = EXPECTED[batch]
        positives = [c for c in cases if c["kind"] == "positive"]
        assert expected["positive"]["without_a_record_yet"] == sum(not c["record"] for c in positives), batch
        for kind in KINDS:
            want = expected[kind]
            chosen = [c for c in cases if c["kind"] == kind and (kind != "positive" or c["record"])]
            assert want["cases"] == len(chosen), (batch, kind)
            assert want["right"] == want["cases"] - len(want["known_misses"]), (batch, kind)
            assert set(want["known_misses"]) <= {c["id"] for c in chosen}, (batch, kind)


def test_the_first_batch_keeps_the_rates_the_product_promises() -> None:
    """Positives explained by the right record, negatives and runs without an error left alone."""
    expected = EXPECTED["batch1"]
    for kind, promise in (("positive", 0.97), ("negative", 0.95), ("no-error", 0.95)):
        assert expected[kind]["right"] / expected[kind]["cases"] >= promise, kind


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("batch", BATCHES)
def test_each_batch_gets_right_what_it_got_right_when_measured(bundled_matcher: Matcher, batch: str, kind: str) -> None:
    count, wrong = misses(kind, bundled_matcher, CASES_OF[batch])
    want = EXPECTED[batch][kind]
    assert count == want["cases"]
    assert not set(wrong) - set(want["known_misses"]), "these cases were right when last measured"
    assert not set(want["known_misses"]) - set(wrong), f"right now: take them out of {batch}/expected.json"


@pytest.mark.parametrize("kind", ["positive", "negative"])
def test_wordings_no_record_lists_are_still_recognised(bundled_matcher: Matcher, kind: str) -> None:
    """Generalisation, measured: with every record's message history taken away, old and new wordings
    must still find their record by the weighted word score alone (the held-out pastes will hold
    wordings the history does not list), and no negative may start to match."""
    bare = Matcher([r._replace(messageVariants=()) for r in bundled_matcher.catalog.all_records()])
    count, wrong = misses(kind, bare, CASES)
    want = EXPECTED["batch1"]["without_message_history"][kind]
    assert count == want["cases"]
    assert not set(wrong) - set(want["known_misses"]), "these cases were right when last measured"
    assert not set(want["known_misses"]) - set(wrong), "right now: take them out of batch1/expected.json"


@pytest.mark.parametrize("threshold", [50.0, None, 95.0])
def test_an_event_kept_only_when_explained_gets_the_same_matches_without_scoring_hopeless_records(
    bundled_matcher: Matcher, threshold: float | None
) -> None:
    """A tentative event (a paragraph of a paste, a warning) is kept only for its matches, so the records
    whose fuzzy score could not reach the cut-off are not scored: the matches stay what scoring all gives."""
    from leafexplain.intake.collect import collect

    tentative = [
        event
        for case in EVERY_CASE
        for event in collect(Path(case["file"]).read_bytes(), Limits(), pasted=True).events
        if event.tentative
    ]
    assert len(tentative) > 100
    for event in tentative:
        everything = bundled_matcher.match(event, threshold=threshold)
        wanted = bundled_matcher.match(event, threshold=threshold, matches_only=True)
        assert wanted.matches == everything.matches, event.message[:200]
