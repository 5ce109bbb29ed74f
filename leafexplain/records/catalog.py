"""The catalog: the records as the matcher needs them, a few columns each and a word index for
candidates, with the full record read only when it is shown."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Mapping, Sequence

from leafexplain.models import Problem, Record
from leafexplain.records.patterns import pattern_text

# The rarest words of each wording go into the candidate index: a pattern hit needs every
# literal word to be present, so any one of them finds it; three give fuzzy matches a chance
# when a release reworded the rest.
INDEX_WORDS_PER_PATTERN = 3

# One wording of a record: its pattern, the releases that print it ("" for the record's own),
# and the exception class those releases raise (None: the record's).
Wording = tuple[str, str, "str | None"]


class Catalog:
    """The records as columns (a list, or a column of the on-disk index, each), the word index, and the full
    record fetched when asked for (then kept)."""

    def __init__(
        self,
        *,
        ids: Sequence[str],
        repos: Sequence[str],
        slugs: Sequence[str],
        patterns: Sequence[str],
        languages: Sequence[str],
        classes: Sequence[str | None],
        tags: Sequence[list[str]],
        token_index: Mapping[str, Sequence[int]],
        unindexed: list[int],  # records with no indexable word: always candidates
        fetch: Callable[[int], Record],
        variants: Sequence[tuple[Wording, ...]] = (),  # each record's other wordings (messageVariants)
        document_frequency: Mapping[str, int] | None = None,  # records whose wordings have the word
        problems: tuple[Problem, ...] = (),
        sources: tuple[str, ...] = (),
        saved: bool = False,  # this run built the index and wrote it to the cache
    ) -> None:
        self.ids, self.repos, self.slugs, self.patterns = ids, repos, slugs, patterns
        self.languages, self.classes, self.tags = languages, classes, tags
        self.token_index, self.unindexed, self.fetch, self.variants = token_index, unindexed, fetch, variants
        self.document_frequency: Mapping[str, int] = {} if document_frequency is None else document_frequency
        self.problems, self.sources, self.saved = problems, sources, saved
        self._records: dict[int, Record] = {}
        self._weights: dict[str, float] = {}

    def __len__(self) -> int:
        return len(self.ids)

    def record(self, index: int) -> Record:
        if index not in self._records:
            self._records[index] = self.fetch(index)
        return self._records[index]

    def all_records(self) -> list[Record]:
        return [self.record(i) for i in range(len(self))]

    def wordings(self, index: int) -> tuple[Wording, ...]:
        """The record's own wording first, then the other releases' wordings."""
        own: Wording = (self.patterns[index], "", None)
        return (own, *self.variants[index]) if self.variants else (own,)

    def weight(self, word: str) -> float:
        """How much a word tells records apart: rare words weigh more (inverse document frequency)."""
        weight = self._weights.get(word)
        if weight is None:  # asked for again and again by the fuzzy score: worked out once
            count = self.document_frequency.get(word, 1)
            weight = self._weights[word] = math.log(1.0 + len(self) / count)
        return weight

    def find(self, key: str) -> list[int]:
        """Records whose id, else whose slug, is `key`."""
        exact = [i for i, v in enumerate(self.ids) if v == key]
        return exact or [i for i, v in enumerate(self.slugs) if v == key]


def build_token_index(token_lists: Sequence[Sequence[Sequence[str]]]) -> tuple[dict[str, list[int]], list[int]]:
    """Word -> records, from each record's wordings (each a list of words): the rarest words of
    each wording. A record with a wording that has no indexable word is always a candidate."""
    frequency: Counter[str] = Counter()
    for wordings in token_lists:
        frequency.update({word for tokens in wordings for word in tokens})
    index: dict[str, list[int]] = {}
    unindexed: list[int] = []
    for n, wordings in enumerate(token_lists):
        chosen: set[str] = set()
        for tokens in wordings:
            rare = sorted(tokens, key=lambda w: (frequency[w], -len(w), w))[:INDEX_WORDS_PER_PATTERN]
            if not rare:
                unindexed.append(n)
                break
            chosen.update(rare)
        for word in sorted(chosen):
            index.setdefault(word, []).append(n)
    return index, sorted(set(unindexed))


def record_wordings(record: Record) -> tuple[Wording, ...]:
    """The record's other wordings, as the catalog keeps them."""
    return tuple((v.messagePattern, v.versions, v.errorClass) for v in record.messageVariants)


def wording_tokens(pattern: str, variants: Sequence[Wording]) -> tuple[tuple[str, ...], ...]:
    """The indexable words of each of a record's wordings."""
    return tuple(pattern_text(p).tokens for p in (pattern, *(v[0] for v in variants)))


def document_frequency(token_lists: Sequence[Sequence[Sequence[str]]]) -> dict[str, int]:
    """In how many records' wordings each indexable word occurs (words of one record only are left
    out: the weight's default covers them)."""
    counts: Counter[str] = Counter()
    for wordings in token_lists:
        counts.update({word for tokens in wordings for word in tokens})
    return {word: count for word, count in counts.items() if count > 1}


def catalog_from_records(
    records: Sequence[Record], problems: Sequence[Problem] = (), sources: Sequence[str] = ()
) -> Catalog:
    """A catalog over records already in memory."""
    held = list(records)
    variants = [record_wordings(r) for r in held]
    patterns = [r.messagePattern for r in held]
    tokens = [wording_tokens(p, v) for p, v in zip(patterns, variants, strict=True)]
    token_index, unindexed = build_token_index(tokens)
    catalog = Catalog(
        ids=[r.id for r in held],
        repos=[r.repo for r in held],
        slugs=[r.slug for r in held],
        patterns=patterns,
        languages=[r.language for r in held],
        classes=[r.errorClass for r in held],
        tags=[list(r.tags) for r in held],
        token_index=token_index,
        unindexed=unindexed,
        fetch=held.__getitem__,
        problems=tuple(problems),
        sources=tuple(sources),
        variants=variants,
        document_frequency=document_frequency(tokens),
    )
    return catalog
