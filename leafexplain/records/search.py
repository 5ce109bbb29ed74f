"""Fuzzy search over records: messages, slugs, tags and repositories, best first."""

from __future__ import annotations

from rapidfuzz import fuzz, process, utils

from leafexplain.models import Record
from leafexplain.records.catalog import Catalog

SEARCH_CUTOFF = 50.0


def _haystack(catalog: Catalog, i: int) -> str:
    # The pattern stands in for the message: it is in the index, so no record file is read.
    return " ".join(
        [catalog.patterns[i], catalog.slugs[i].replace("-", " "), " ".join(catalog.tags[i]), catalog.repos[i]]
    )


def _score(query: str, text: str, **kwargs: object) -> float:
    # Every query word present scores 100, whatever else the record says; a misspelt word
    # still finds the text it is close to, at a lower score.
    return max(fuzz.token_set_ratio(query, text, **kwargs), 0.85 * fuzz.partial_ratio(query, text, **kwargs))  # type: ignore[arg-type]


def search_records(catalog: Catalog, query: str, limit: int) -> list[tuple[Record, float | None]]:
    hits = process.extract(
        query,
        [_haystack(catalog, i) for i in range(len(catalog))],
        scorer=_score,
        processor=utils.default_process,
        limit=limit,
        score_cutoff=SEARCH_CUTOFF,
    )
    # Equal scores keep a stable order: by repository, then slug.
    ranked = sorted(hits, key=lambda h: (-h[1], catalog.repos[h[2]], catalog.slugs[h[2]]))
    return [(catalog.record(index), round(score, 1)) for _text, score, index in ranked]
