"""The catalog: the records behind one interface, what the matcher asks of a row and of a message's words, with
the full record read only when it is shown.

The matcher (match/) asks only through the methods under "What the matcher asks" below: the candidates
of a message, the rows whose head words could reach a floor, the records that explain a class alone,
the compile records of an error code, and of a row its wordings, language, class, repo, id and whether it
is a compile record; tests/test_architecture.py holds it to them.
The commands read `ids`, `repos`, `slugs` and `tags` (list, completion), `record`, `all_records` and
`find`. The columns behind them (a list each, or a column of the on-disk index, records/index/) and
the word indexes (records/postings.py) are the catalog's own.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence

from leafexplain.models import Problem, Record
from leafexplain.records.patterns import placeholder_only
from leafexplain.records.postings import (
    MAX_WORDING,
    MEMBER_SHIFT,
    Candidates,
    DistinctWordings,
    HeadIndex,
    Members,
    SortedPostings,
    WordIndex,
    build_head_index,
    build_token_index,
    candidates_in,
    document_frequency,
    flat_members,
)

# One wording of a record: its pattern, the releases that print it ("" for the record's own),
# and the exception class those releases raise (None: the record's).
Wording = tuple[str, str, "str | None"]


class Catalog:
    """The records as columns (a list, or a column of the on-disk index, each), the word indexes, and the full
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
        token_index: WordIndex,
        members: Members,  # of each distinct wording, the rows that have it
        unindexed: list[int],  # records with no indexable word: always candidates
        heads: HeadIndex,
        fetch: Callable[[int], Record],
        variants: Sequence[tuple[Wording, ...]] = (),  # each record's other wordings (messageVariants)
        document_frequency: Mapping[str, int] | None = None,  # records whose wordings have the word
        codes: Mapping[str, Sequence[int]] | None = None,  # error code -> the compile records of that code
        class_only: list[int] | None = None,  # the class-level records (class_only_rows), where the index holds them
        problems: tuple[Problem, ...] = (),
        sources: tuple[str, ...] = (),
        saved: bool = False,  # this run built the index and wrote it to the cache
    ) -> None:
        # The commands' columns (list, completion): read, never written.
        self.ids, self.repos, self.slugs, self.tags = ids, repos, slugs, tags
        self._patterns, self._languages, self._classes, self._variants = patterns, languages, classes, variants
        self._token_index, self._members, self._unindexed, self._heads = token_index, members, unindexed, heads
        self._document_frequency: Mapping[str, int] = {} if document_frequency is None else document_frequency
        self._codes: Mapping[str, Sequence[int]] = {} if codes is None else codes
        self._coded: frozenset[int] | None = None
        self._class_only = class_only
        self.fetch = fetch  # how a full record is read (records/index/ wraps it to heal a damaged index)
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

    def find(self, key: str) -> list[int]:
        """Records whose id, else whose slug, is `key`."""
        exact = [i for i, v in enumerate(self.ids) if v == key]
        return exact or [i for i, v in enumerate(self.slugs) if v == key]

    # What the matcher asks.

    def candidates(self, words: set[str]) -> Candidates:
        """The records a message with these words (patterns.message_words) could be explained by: of a wording
        many records share, the first postings.ROWS_PER_WORDING, the others counted in `unlisted`, by pattern."""
        found = candidates_in(self._token_index, self._members, self._unindexed, words)
        if not found.unlisted:
            return found
        by_pattern: dict[str, int] = {}
        for first, left_out in found.unlisted.items():
            pattern = self.wordings(first >> MEMBER_SHIFT)[first & MAX_WORDING][0]
            by_pattern[pattern] = by_pattern.get(pattern, 0) + left_out
        return found._replace(unlisted=by_pattern)

    def rows_reaching(self, present: set[str], share: float) -> set[int]:
        """The records with a wording whose head words in `present` weigh at least `share` of its head's weight."""
        return self._heads.rows_reaching(present, self.weight, share)

    def class_only_rows(self) -> list[int]:
        """The records whose wording is a placeholder alone, with a class: they explain an exception class as such.
        The index's header lists them (every message asks, and finding them reads two columns of every row no word
        indexes: some 200 of its blocks, a tenth of an explanation at 641 records); a catalog built in memory finds
        them once."""
        if self._class_only is None:
            self._class_only = [n for n in self._unindexed if self._classes[n] and placeholder_only(self._patterns[n])]
        return self._class_only

    def rows_with_code(self, code: str) -> Sequence[int]:
        """The compile records of a compiler's error code (`E0382`): a dict lookup, whatever the catalog's size."""
        return self._codes.get(code, ())

    def keyed_by_code(self, index: int) -> bool:
        """The record explains a compiler's error code: it explains compile errors, and nothing else."""
        if self._coded is None:  # a few dozen rows: the set of them is made once
            self._coded = frozenset(n for rows in self._codes.values() for n in rows)
        return index in self._coded

    def wordings(self, index: int) -> tuple[Wording, ...]:
        """The record's own wording first, then the other releases' wordings."""
        own: Wording = (self._patterns[index], "", None)
        return (own, *self._variants[index]) if self._variants else (own,)

    def weight(self, word: str) -> float:
        """How much a word tells records apart: rare words weigh more (inverse document frequency)."""
        weight = self._weights.get(word)
        if weight is None:  # asked for again and again by the fuzzy score: worked out once
            weight = self._weights[word] = word_weight(len(self), self._document_frequency.get(word, 1))
        return weight

    def language(self, index: int) -> str:
        return self._languages[index]

    def error_class(self, index: int) -> str | None:
        """The exception class of the record's own wording (None: any)."""
        return self._classes[index]

    def repo(self, index: int) -> str:
        return self.repos[index]

    def record_id(self, index: int) -> str:
        return self.ids[index]

    def pattern(self, index: int) -> str:
        """The record's own wording."""
        return self._patterns[index]


# rustc's diagnostics without an error code (`error: linker `cc` not found`) key their records by this, which no
# error code is: such a record explains a compile error without a code, and nothing else.
NO_CODE = "-"


def record_code(record: Record) -> str | None:
    """The error code a record is keyed by: a compile record's `errorCode`, or NO_CODE for a compile record of a
    diagnostic without one (other records' codes are facts)."""
    if record.errorType != "compile":
        return None
    return record.errorCode or NO_CODE


def class_level(record: Record) -> bool:
    """The record explains its exception class as such: a class, and a wording that is a placeholder alone."""
    return bool(record.errorClass) and placeholder_only(record.messagePattern)


def code_rows(codes: Sequence[str | None]) -> dict[str, list[int]]:
    """Error code -> the rows of its compile records, from each row's code (None: not a compile record)."""
    rows: dict[str, list[int]] = {}
    for n, code in enumerate(codes):
        if code:
            rows.setdefault(code, []).append(n)
    return rows


def word_weight(records: int, having: int) -> float:
    """How much a word tells records apart: rare words weigh more (inverse document frequency)."""
    return math.log(1.0 + records / having)


def record_wordings(record: Record) -> tuple[Wording, ...]:
    """The record's other wordings, as the catalog keeps them."""
    return tuple((v.messagePattern, v.versions, v.errorClass) for v in record.messageVariants)


def catalog_from_records(
    records: Sequence[Record], problems: Sequence[Problem] = (), sources: Sequence[str] = ()
) -> Catalog:
    """A catalog over records already in memory."""
    held = list(records)
    variants = [record_wordings(r) for r in held]
    patterns = [r.messagePattern for r in held]
    distinct = DistinctWordings()
    row_wordings = [distinct.add([p, *(v[0] for v in vs)]) for p, vs in zip(patterns, variants, strict=True)]
    tokens = distinct.tokens()
    df = document_frequency(row_wordings, tokens)
    keys, members, ends, unindexed = build_token_index(row_wordings, tokens, df)
    head_keys, totals = build_head_index(distinct.patterns, lambda word: word_weight(len(held), df.get(word, 1)))
    of = flat_members(members, ends)
    return Catalog(
        ids=[r.id for r in held],
        repos=[r.repo for r in held],
        slugs=[r.slug for r in held],
        patterns=patterns,
        languages=[r.language for r in held],
        classes=[r.errorClass for r in held],
        tags=[list(r.tags) for r in held],
        token_index=SortedPostings(keys),
        members=of,
        unindexed=unindexed,
        heads=HeadIndex(SortedPostings(head_keys), lambda: totals, of),
        fetch=held.__getitem__,
        problems=tuple(problems),
        sources=tuple(sources),
        variants=variants,
        document_frequency=df,
        codes=code_rows([record_code(r) for r in held]),
    )
