"""A wording as the fuzzy score reads it: its content words in order, its head clause, its placeholders.

Here, below the matcher, because the record index keeps each wording's head words too: a message
that lacks most of a wording's head cannot score high enough to count, and the index finds the
wordings that could without reading any other.
"""

from __future__ import annotations

from functools import lru_cache

from leafexplain.named import NamedTuple
from leafexplain.records.patterns import WORD, content_word, split_pattern
from leafexplain.regex import lazy_regex

# The head: the first clause, or the first clauses until it has HEAD_MIN_WORDS words ("CUDA out of
# memory. Tried to allocate"), at most HEAD_MAX_WORDS.
HEAD_MIN_WORDS, HEAD_MAX_WORDS = 4, 8

_CLAUSE_END = lazy_regex(r"[.:;!?(\n]|, but ")


class WordingWords(NamedTuple):
    """A wording as the fuzzy score reads it."""

    words: tuple[str, ...]  # content words, in order
    head: int  # the first `head` words are the head clause
    holes: tuple[int, ...]  # placeholders just before each word


@lru_cache(maxsize=8192)
def wording_words(pattern: str) -> WordingWords:
    words: list[str] = []
    holes: list[int] = []
    pending = 0
    head: int | None = None
    for part in split_pattern(pattern):
        if part is None:
            pending += 1
            continue
        pos = 0
        for clause_end in [*(m.start() for m in _CLAUSE_END.finditer(part)), len(part)]:
            for found in WORD.findall(part, pos, clause_end):  # findall: no Match object per word
                word = found.lower()
                if content_word(word):
                    words.append(word)
                    holes.append(pending)
                    pending = 0
            pos = clause_end
            if head is None and clause_end < len(part) and len(words) >= HEAD_MIN_WORDS:
                head = len(words)
    head = min(head if head is not None else len(words), HEAD_MAX_WORDS, len(words))
    return WordingWords(tuple(words), head, tuple(holes))
