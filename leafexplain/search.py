"""Fuzzy search over records: messages, slugs, tags and repositories, best first."""

from __future__ import annotations

from collections.abc import Sequence

from rapidfuzz import fuzz, process, utils

from leafexplain.models import Record

SEARCH_CUTOFF = 50.0


def _haystack(record: Record) -> str:
    return " ".join([record.errorMessage, record.slug.replace("-", " "), " ".join(record.tags), record.repo])


def _score(query: str, text: str, **kwargs: object) -> float:
    # Every query word present scores 100, whatever else the record says; a misspelt word
    # still finds the text it is close to, at a lower score.
    return max(fuzz.token_set_ratio(query, text, **kwargs), 0.85 * fuzz.partial_ratio(query, text, **kwargs))  # type: ignore[arg-type]


def search_records(records: Sequence[Record], query: str, limit: int) -> list[tuple[Record, float | None]]:
    hits = process.extract(
        query,
        [_haystack(r) for r in records],
        scorer=_score,
        processor=utils.default_process,
        limit=limit,
        score_cutoff=SEARCH_CUTOFF,
    )
    # Equal scores keep a stable order: by repository, then slug.
    ranked = sorted(hits, key=lambda h: (-h[1], records[h[2]].repo, records[h[2]].slug))
    return [(records[index], round(score, 1)) for _text, score, index in ranked]
