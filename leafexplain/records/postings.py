"""The word indexes behind the catalog: the candidates of a message, and the heads that could reach a floor.

Two indexes, in memory (SortedPostings) or on disk (records/index/columns.HashedIndex), both looked up
with `get(word)`: the rarest words of each wording (a wording is tried only on a message holding all
of them), and each wording's head words (records/wording_words.py), which find the records whose
fuzzy score could still reach a floor without reading the others. Both name distinct wordings:
records that share a wording share its entry, and its members (the rows that have it, each listed
once) say whose it is; a message names at most ROWS_PER_WORDING of them as candidates.
"""

from __future__ import annotations

import sys
import zlib
from array import array
from bisect import bisect_left
from collections.abc import Callable, Iterable, Mapping, Sequence

from leafexplain.named import NamedTuple

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing
if TYPE_CHECKING:
    pass

# The rarest words of each wording go into the candidate index: a pattern hit needs every literal
# word to be present, so a wording is tried only on a message that has all of them; a record with
# any one of them is scored by words, which gives fuzzy matches a chance when a release reworded the rest.
INDEX_WORDS_PER_PATTERN = 3
# Records that share one wording are one entry of the indexes (a distinct wording), and a message that may hold it
# names at most this many of them as candidates: the first, in the order of the rows (the record files' order,
# a later id in the place of the earlier); the others are counted (Candidates.unlisted), never scored. At
# 100,000 records of which 10,000 share one wording, scoring all of them took 20 s; the bundled records share
# a wording between two at most.
ROWS_PER_WORDING = 20

# Word -> postings: a dict, a SortedPostings, or the on-disk index's (index/columns.HashedIndex): anything with `get`.
WordIndex = "Mapping[str, Sequence[int]] | SortedPostings | Any"
# Of a distinct wording (its number), its members: (row << MEMBER_SHIFT | which of the row's wordings), by row.
Members = Callable[[int], Sequence[int]]


class DistinctWordings:
    """Each distinct wording once, numbered as first seen; records that share a wording share its number (one
    string for 10,000 records of one wording, not one each)."""

    def __init__(self) -> None:
        self.number: dict[str, int] = {}
        self.patterns: list[str] = []

    def add(self, patterns: Iterable[str]) -> tuple[int, ...]:
        """The numbers of a row's wordings (its own, then the other releases')."""
        numbers = []
        for pattern in patterns:
            number = self.number.get(pattern)
            if number is None:
                number = self.number[pattern] = len(self.patterns)
                self.patterns.append(pattern)
            numbers.append(number)
        return tuple(numbers)

    def tokens(self) -> list[tuple[str, ...]]:
        """The indexable words of each distinct wording, made when the index is (not while the records are read,
        beside every row: 10 MB at 100,000 records)."""
        from leafexplain.records.patterns import pattern_text

        # One string per distinct word: 100,000 records share a few thousand words.
        return [tuple(map(sys.intern, pattern_text(pattern).tokens)) for pattern in self.patterns]


def document_frequency(row_wordings: Sequence[Sequence[int]], tokens: Sequence[Sequence[str]]) -> dict[str, int]:
    """In how many records' wordings each indexable word occurs (words of one record only are left out: the
    weight's default covers them)."""
    counts: dict[str, int] = {}
    for numbers in row_wordings:
        for word in {word for number in numbers for word in tokens[number]}:
            counts[word] = counts.get(word, 0) + 1
    return {word: count for word, count in counts.items() if count > 1}


# A member is one number: the row, and which of its wordings (0: its own) it is.
MEMBER_SHIFT = 6
MAX_WORDING = (1 << MEMBER_SHIFT) - 1  # 63, past the 51 wordings a record may have
# A token posting is one number: the distinct wording, and how many of its words are in the index (1 to
# INDEX_WORDS_PER_PATTERN). A message that has all of them may hold the wording; one that lacks any cannot, and
# the wording's pattern is never tried on it.
WORDS_BITS = 2
MAX_DISTINCT = (1 << (32 - WORDS_BITS)) - 1  # a posting is 32 bits beside its word's checksum


def member(row: int, wording: int) -> int:
    return (row << MEMBER_SHIFT) | wording


def member_row(value: int) -> int:
    return value >> MEMBER_SHIFT


def build_token_index(
    row_wordings: Sequence[Sequence[int]], tokens: Sequence[Sequence[str]], frequency: Mapping[str, int]
) -> tuple[array[int], array[int], array[int], list[int]]:
    """The word index of the distinct wordings: the sorted keys of a SortedPostings of each one's rarest words
    (by `frequency`, document_frequency's), each posting naming the distinct wording and how many words it has in
    the index; the members of each distinct wording (all of them, by distinct wording then row) and where each
    one's end; and the records with a wording that has no indexable word (always candidates)."""
    keys = _Buckets()
    indexed = array("B")
    for number, words in enumerate(tokens):
        rare = sorted(words, key=lambda t: (frequency.get(t, 1), -len(t), t))[:INDEX_WORDS_PER_PATTERN]
        indexed.append(bool(rare) and number <= MAX_DISTINCT)
        for word in rare if indexed[-1] else ():
            keys.add(word, (number << WORDS_BITS) | len(rare))
    unindexed: list[int] = []
    pairs = array("Q")  # (distinct wording << 32 | member): one array, sorted once
    for row, numbers in enumerate(row_wordings):
        for which, number in enumerate(numbers):
            if which <= MAX_WORDING and row < (1 << (32 - MEMBER_SHIFT)):
                pairs.append((number << 32) | member(row, which))
        if any(not indexed[g] for g in numbers) or len(numbers) > MAX_WORDING + 1 or row >= 1 << (32 - MEMBER_SHIFT):
            unindexed.append(row)
    members, ends = array("I"), array("I", bytes(4 * len(tokens)))
    for value in sorted(pairs):
        members.append(value & 0xFFFFFFFF)
        ends[value >> 32] = len(members)
    for number in range(1, len(ends)):  # a distinct wording no row has (none is): ends where the one before did
        ends[number] = max(ends[number], ends[number - 1])
    return keys.sorted(), members, ends, unindexed


def flat_members(members: Sequence[int], ends: Sequence[int]) -> Members:
    """The members of a distinct wording, from build_token_index's two arrays."""

    def of(number: int) -> Sequence[int]:
        return members[ends[number - 1] if number else 0 : ends[number]] if 0 <= number < len(ends) else ()

    return of


def bounded_rows(found: Sequence[int]) -> tuple[list[int], int]:
    """A distinct wording's members (by row) as the candidates keep them: those of its first ROWS_PER_WORDING rows,
    and how many rows are left out."""
    kept: list[int] = []
    rows = 0
    last = -1
    for value in found:
        row = value >> MEMBER_SHIFT
        if row != last:
            rows, last = rows + 1, row
        if rows <= ROWS_PER_WORDING:
            kept.append(value)
    return kept, max(rows - ROWS_PER_WORDING, 0)


class _Buckets:
    """(word checksum << 32 | value) numbers, kept by the checksum's top 16 bits and sorted bucket by bucket, so
    that no list of a million numbers is made at once, and no object per word (at 100,000 records of distinct
    wording, a dict of a list per word costs 20 MB and more)."""

    def __init__(self) -> None:
        self.buckets: list[array[int] | None] = [None] * (1 << 16)

    def add(self, word: str, value: int) -> None:
        key = zlib.crc32(word.encode())
        bucket = self.buckets[key >> 16]
        if bucket is None:
            bucket = self.buckets[key >> 16] = array("Q")
        bucket.append((key << 32) | value)

    def sorted(self) -> array[int]:
        keys = array("Q")
        for n, bucket in enumerate(self.buckets):
            if bucket is not None:
                keys.extend(sorted(bucket))
                self.buckets[n] = None
        return keys


class Candidates(NamedTuple):
    """The records a message could be explained by, as the word index sees it."""

    rows: list[int]  # every record sharing an indexed word with the message (for the word score)
    # For each record whose wordings could be found in the message, which ones (None: all, for a record with
    # a wording the index has no word of).
    whole: dict[int, set[int] | None]
    # The wordings the message has all but one indexed word of (two at least): a later part of one may be
    # there, its start not pasted (records/patterns.wording_parts).
    partly: dict[int, set[int]]
    # Of each distinct wording past ROWS_PER_WORDING records, its first member kept, and how many records were
    # left out (the catalog gives them by pattern: Catalog.candidates).
    unlisted: dict[int, int]


def candidates_in(index: WordIndex, members: Members, unindexed: Sequence[int], words: set[str]) -> Candidates:
    counts: dict[int, int] = {}
    for word in words:
        for value in index.get(word, ()):
            counts[value] = counts.get(value, 0) + 1
    whole: dict[int, set[int] | None] = dict.fromkeys(unindexed)
    partly: dict[int, set[int]] = {}
    unlisted: dict[int, int] = {}
    rows = set(unindexed)
    for value, count in counts.items():
        needed = value & ((1 << WORDS_BITS) - 1)
        kept, left_out = bounded_rows(members(value >> WORDS_BITS))
        if left_out and kept:
            unlisted[kept[0]] = left_out
        rows.update(m >> MEMBER_SHIFT for m in kept)
        if count >= needed:  # every one of the wording's indexed words
            for m in kept:
                found = whole.setdefault(m >> MEMBER_SHIFT, set())
                if found is not None:
                    found.add(m & MAX_WORDING)
        elif count >= 2 and count == needed - 1:
            for m in kept:
                partly.setdefault(m >> MEMBER_SHIFT, set()).add(m & MAX_WORDING)
    return Candidates(sorted(rows), whole, partly, unlisted)


class SortedPostings:
    """Word -> postings from one sorted array of (word checksum << 32 | posting): numbers only, no object per
    word (at 100,000 records of distinct wording, a dict of a list per word costs 80 MB)."""

    def __init__(self, keys: array[int]) -> None:
        self.keys = keys

    def get(self, word: str, default: Sequence[int] = ()) -> Sequence[int]:
        key = zlib.crc32(word.encode()) << 32
        start = bisect_left(self.keys, key)
        stop = bisect_left(self.keys, key + (1 << 32), start)
        return [k & 0xFFFFFFFF for k in self.keys[start:stop]] or default


class HeadIndex(NamedTuple):
    """Each distinct wording's head clause (records/wording_words.py), word by word, for the records a message of
    few of those words could still match by words: word -> distinct wordings (one posting per place in a head),
    `totals()`: of each distinct wording, its head's total weight, and `members`: the rows that have it."""

    words: Mapping[str, Sequence[int]] | SortedPostings
    totals: Callable[[], Sequence[float]]
    members: Members

    def rows_reaching(self, present: set[str], weight: Callable[[str], float], share: float) -> set[int]:
        """Rows with a wording whose head words in `present` weigh at least `share` of its head (of a wording
        many records share, the first ROWS_PER_WORDING, as the candidates keep them)."""
        found: dict[int, float] = {}
        for word in present:
            postings = self.words.get(word, ())
            if postings:
                w = weight(word)
                for wording in postings:
                    found[wording] = found.get(wording, 0.0) + w
        if not found:
            return set()
        totals = self.totals()
        reaching: set[int] = set()
        for number, got in found.items():
            if got >= share * totals[number] * (1 - 1e-9):  # a hair under the share: summed in another order
                reaching.update(m >> MEMBER_SHIFT for m in bounded_rows(self.members(number))[0])
        return reaching


def build_head_index(patterns: Iterable[str], weight: Callable[[str], float]) -> tuple[array[int], array[float]]:
    """The head index of the distinct wordings: the sorted keys of SortedPostings, and each one's head weight."""
    from leafexplain.records.wording_words import wording_words

    keys = _Buckets()
    totals = array("d")
    for number, pattern in enumerate(patterns):
        parsed = wording_words(pattern)
        head = parsed.words[: parsed.head]
        for word in head:
            keys.add(word, number)
        totals.append(sum(map(weight, head)))
    return keys.sorted(), totals
