"""The catalog: the records as the matcher needs them, a few columns each and a word index for
candidates, with the full record read only when it is shown."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from leafexplain.models import Problem, Record
from leafexplain.records.patterns import pattern_text

# The rarest words of each pattern go into the candidate index: a regex hit needs every
# literal word to be present, so any one of them finds it; two give fuzzy matches a chance
# when a release reworded the rest.
INDEX_WORDS_PER_RECORD = 2


@dataclass
class Catalog:
    ids: list[str]
    repos: list[str]
    slugs: list[str]
    patterns: list[str]
    languages: list[str]
    classes: list[str | None]
    tags: list[list[str]]
    token_index: dict[str, list[int]]
    unindexed: list[int]  # records with no indexable word: always candidates
    fetch: Callable[[int], Record]
    problems: tuple[Problem, ...] = ()
    sources: tuple[str, ...] = ()
    saved: bool = False  # this run built the index and wrote it to the cache
    _records: dict[int, Record] = field(default_factory=dict, repr=False)

    def __len__(self) -> int:
        return len(self.ids)

    def record(self, index: int) -> Record:
        if index not in self._records:
            self._records[index] = self.fetch(index)
        return self._records[index]

    def all_records(self) -> list[Record]:
        return [self.record(i) for i in range(len(self))]

    def find(self, key: str) -> list[int]:
        """Records whose id, else whose slug, is `key`."""
        exact = [i for i, v in enumerate(self.ids) if v == key]
        return exact or [i for i, v in enumerate(self.slugs) if v == key]


def build_token_index(token_lists: Sequence[Sequence[str]]) -> tuple[dict[str, list[int]], list[int]]:
    frequency: Counter[str] = Counter()
    for tokens in token_lists:
        frequency.update(tokens)
    index: dict[str, list[int]] = {}
    unindexed: list[int] = []
    for n, tokens in enumerate(token_lists):
        rare = sorted(tokens, key=lambda w: (frequency[w], -len(w), w))[:INDEX_WORDS_PER_RECORD]
        if not rare:
            unindexed.append(n)
        for word in rare:
            index.setdefault(word, []).append(n)
    return index, unindexed


def catalog_from_records(
    records: Sequence[Record], problems: Sequence[Problem] = (), sources: Sequence[str] = ()
) -> Catalog:
    """A catalog over records already in memory."""
    token_index, unindexed = build_token_index([pattern_text(r.messagePattern).tokens for r in records])
    held = list(records)
    catalog = Catalog(
        ids=[r.id for r in held],
        repos=[r.repo for r in held],
        slugs=[r.slug for r in held],
        patterns=[r.messagePattern for r in held],
        languages=[r.language for r in held],
        classes=[r.errorClass for r in held],
        tags=[list(r.tags) for r in held],
        token_index=token_index,
        unindexed=unindexed,
        fetch=held.__getitem__,
        problems=tuple(problems),
        sources=tuple(sources),
    )
    return catalog
