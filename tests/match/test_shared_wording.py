"""Records that share one wording cost the matcher one score, and name a bounded number of candidates (issue 28 #13).

Counted, never timed: the patterns the matcher searches for or scores (Matcher's `count_score`) and the
records it lists, against 10,000 records of one wording, in memory and through the on-disk index.
"""

from __future__ import annotations

import pytest

from leafexplain.match import Matcher
from leafexplain.models import ErrorEvent
from leafexplain.records import open_catalog
from leafexplain.records.catalog import Catalog, catalog_from_records
from leafexplain.records.postings import ROWS_PER_WORDING
from tests.conftest import Isolated, as_record, make_record, write_records

SHARED = "widget frobnication failed in the sprocket assembly"
SHARING = 10_000
OTHERS = 2_000


def records() -> list[dict]:
    """SHARING records of one wording, every sixth record among OTHERS of wordings of their own."""
    out = []
    for n in range(SHARING + OTHERS):
        own = n % 6 == 5 and n // 6 < OTHERS
        message = f"gadget {n:05d} misaligned while spinning the rotor {n}" if own else SHARED
        out.append(make_record(f"{n:016x}", message, slug=f"r{n}"))
    return out


@pytest.fixture(scope="module")
def catalogs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Catalog]:
    tmp = tmp_path_factory.mktemp("shared")
    user = Isolated(tmp)
    path = write_records(tmp / "records", "shared.jsonl", *records())
    open_catalog([str(path)], bundled=False, configured=False, environ=user.environ)  # builds the index
    return {
        "memory": catalog_from_records([as_record(r) for r in records()]),
        "index": open_catalog([str(path)], bundled=False, configured=False, environ=user.environ),
    }


def event(message: str) -> ErrorEvent:
    return ErrorEvent(language="rust", error_type="panic", message=message)


@pytest.mark.parametrize("where", ["memory", "index"])
def test_a_wording_shared_by_10000_records_is_searched_for_once(catalogs: dict[str, Catalog], where: str) -> None:
    searched: list[str] = []
    finding = Matcher(catalogs[where], count_score=searched.append).match(event(SHARED))
    assert searched == [SHARED]
    # The first ROWS_PER_WORDING records of the wording, in the records' order; the others counted, not read.
    assert [c.record.id for c in finding.matches] == [f"{n:016x}" for n in range(ROWS_PER_WORDING + 4) if n % 6 != 5]
    assert {c.score for c in finding.matches} == {100.0}
    assert finding.unlisted == SHARING - ROWS_PER_WORDING


@pytest.mark.parametrize("where", ["memory", "index"])
def test_a_wording_shared_by_10000_records_is_scored_by_words_once(catalogs: dict[str, Catalog], where: str) -> None:
    scored: list[str] = []
    reworded = "widget frobnication failed in the sprocket assembly line"  # not the wording: scored by words
    finding = Matcher(catalogs[where], count_score=scored.append).match(event(f"error: {reworded} 7"))
    assert scored.count(SHARED) == 1
    assert len(finding.matches) == ROWS_PER_WORDING


def test_a_wording_of_its_own_among_them_is_found_as_before(catalogs: dict[str, Catalog]) -> None:
    searched: list[str] = []
    message = "gadget 00011 misaligned while spinning the rotor 11"
    finding = Matcher(catalogs["index"], count_score=searched.append).match(event(message))
    assert [c.record.id for c in finding.matches] == [f"{11:016x}"]
    assert searched == [message] and finding.unlisted == 0
