"""The word indexes behind the catalog: the candidates of a message, and the heads that could reach a floor.

Two indexes, in memory (SortedPostings) or on disk (records/index/columns.HashedIndex), both looked up
with `get(word)`: the rarest words of each wording (a wording is tried only on a message holding all
of them), and each wording's head words (records/wording_words.py), which find the records whose
fuzzy score could still reach a floor without reading the others.
"""

from __future__ import annotations

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

# Word -> postings: a dict, a SortedPostings, or the on-disk index's (index/columns.HashedIndex): anything with `get`.
WordIndex = "Mapping[str, Sequence[int]] | SortedPostings | Any"


def build_token_index(
    token_lists: Sequence[Sequence[Sequence[str]]], frequency: Mapping[str, int]
) -> tuple[array[int], list[int]]:
    """The sorted keys of a SortedPostings of the rarest words of each wording (by `frequency`,
    document_frequency's), each posting naming the record, the wording and how many words that wording has
    in the index; and the records with a wording that has no indexable word (always candidates)."""
    keys = _Buckets()
    unindexed: list[int] = []
    for n, wordings in enumerate(token_lists):
        for w, tokens in enumerate(wordings):
            rare = sorted(tokens, key=lambda t: (frequency.get(t, 1), -len(t), t))[:INDEX_WORDS_PER_PATTERN]
            if not rare or w > MAX_WORDING or n > MAX_ROW:
                unindexed.append(n)
                break
            for word in rare:
                keys.add(word, posting(n, w, len(rare)))
    return keys.sorted(), sorted(set(unindexed))


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


# A posting is one number: the record's row, which of its wordings (0: its own), and how many of that
# wording's words are in the index (1 to INDEX_WORDS_PER_PATTERN). A message that has all of them may hold
# the wording; one that lacks any cannot, and the wording's pattern is never tried on it.
WORDING_SHIFT, ROW_SHIFT = 2, 8
MAX_WORDING = (1 << (ROW_SHIFT - WORDING_SHIFT)) - 1  # 63, past the 51 wordings a record may have
MAX_ROW = (1 << (32 - ROW_SHIFT)) - 1  # a posting is 32 bits beside its word's checksum: rows past 16 million
# are always candidates (found by their patterns alone)


def posting(row: int, wording: int, words: int) -> int:
    return (row << ROW_SHIFT) | (wording << WORDING_SHIFT) | words


def posting_row(value: int) -> int:
    return value >> ROW_SHIFT


class Candidates(NamedTuple):
    """The records a message could be explained by, as the word index sees it."""

    rows: list[int]  # every record sharing an indexed word with the message (for the word score)
    # For each record whose wordings could be found in the message, which ones (None: all, for a record with
    # a wording the index has no word of).
    whole: dict[int, set[int] | None]
    # The wordings the message has all but one indexed word of (two at least): a later part of one may be
    # there, its start not pasted (records/patterns.wording_parts).
    partly: dict[int, set[int]]


def candidates_in(index: WordIndex, unindexed: Sequence[int], words: set[str]) -> Candidates:
    counts: dict[int, int] = {}
    for word in words:
        for value in index.get(word, ()):
            counts[value] = counts.get(value, 0) + 1
    whole: dict[int, set[int] | None] = dict.fromkeys(unindexed)
    partly: dict[int, set[int]] = {}
    rows = set(unindexed)
    for value, count in counts.items():
        row = value >> ROW_SHIFT
        rows.add(row)
        needed = value & ((1 << WORDING_SHIFT) - 1)
        if count >= needed:  # every one of the wording's indexed words
            found = whole.setdefault(row, set())
            if found is not None:
                found.add((value >> WORDING_SHIFT) & MAX_WORDING)
        elif count >= 2 and count == needed - 1:
            partly.setdefault(row, set()).add((value >> WORDING_SHIFT) & MAX_WORDING)
    return Candidates(sorted(rows), whole, partly)


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
    """Each wording's head clause (records/wording_words.py), word by word, for the records a message of few of
    those words could still match by words: word -> wordings (one posting per place in a head), and
    `tables()`: of each wording, its record's row and its head's total weight."""

    words: Mapping[str, Sequence[int]] | SortedPostings
    tables: Callable[[], tuple[Sequence[int], Sequence[float]]]

    def rows_reaching(self, present: set[str], weight: Callable[[str], float], share: float) -> set[int]:
        """Rows with a wording whose head words in `present` weigh at least `share` of its head."""
        found: dict[int, float] = {}
        for word in present:
            postings = self.words.get(word, ())
            if postings:
                w = weight(word)
                for wording in postings:
                    found[wording] = found.get(wording, 0.0) + w
        if not found:
            return set()
        rows, totals = self.tables()
        # A hair under the share: the totals were summed in another order.
        return {rows[g] for g, got in found.items() if got >= share * totals[g] * (1 - 1e-9)}


def build_head_index(
    patterns: Iterable[Sequence[str]], weight: Callable[[str], float]
) -> tuple[array[int], array[int], array[float]]:
    """The head index of each row's wordings (its own pattern, then its other wordings'): the sorted keys of
    SortedPostings, and each wording's row and head weight, in arrays."""
    from leafexplain.records.wording_words import wording_words

    keys = _Buckets()
    rows, totals = array("I"), array("d")
    for row, wordings in enumerate(patterns):
        for pattern in wordings:
            parsed = wording_words(pattern)
            head = parsed.words[: parsed.head]
            for word in head:
                keys.add(word, len(rows))
            rows.append(row)
            totals.append(sum(map(weight, head)))
    return keys.sorted(), rows, totals
