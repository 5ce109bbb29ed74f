"""Where a record's message stands in a source file: its literal's first fragment, else the runs of words left of it."""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache

from leafexplain.locate.files import Stamp, read_lines_cached
from leafexplain.records.patterns import split_pattern
from leafexplain.regex import compiled, lazy_regex

# Characters that a source file writes escaped inside a string literal: the fragment we look
# for stops before them, so that `\n`, `\"` or `{{` in the source do not hide a match.
_ESCAPED = lazy_regex(r"[\n\"\\{}%]")
MIN_FRAGMENT = 6
# Long literals wrap in source files, and a message may be joined from several literals: the
# fragment stops at the first clause break, and at a word boundary within this many characters.
MAX_FRAGMENT = 40
_CLAUSE_BREAK = lazy_regex(r"[:;,.(]")


_WORD_WINDOW = 3  # words per anchor when looking for a message whose wording changed
_MAX_ANCHORS = 12


def search_fragment(pattern: str) -> str | None:
    """The first piece of the message's literal text as it stands in source code."""
    for part in split_pattern(pattern):
        if part is None:
            continue
        for piece in _ESCAPED.split(part):
            piece = piece.strip()
            cut = next((m.start() for m in _CLAUSE_BREAK.finditer(piece) if m.start() >= MIN_FRAGMENT), len(piece))
            piece = piece[:cut]
            if len(piece) > MAX_FRAGMENT:
                piece = piece[:MAX_FRAGMENT].rsplit(" ", 1)[0]
            if len(piece.strip()) >= MIN_FRAGMENT:
                return piece.strip()
    return None


def fragment_lines(text: str, fragment: str) -> list[int]:
    """The 1-based lines of `text` where `fragment` (from `search_fragment`) starts, in order."""
    # A literal may be split over lines and joined by the compiler ("view size is "
    # "not compatible ..."): between words, allow quotes, backslashes and line breaks.
    words = [re.escape(w) for w in fragment.split()]
    finder = compiled(r"(?:[\s\"'\\]|\\n)+".join(words))
    return sorted({text.count("\n", 0, m.start()) + 1 for m in finder.finditer(text)})


def _anchors(pattern: str) -> list[str]:
    """Runs of a few words from the message's literal text: what is left to find when its wording changed."""
    out: list[str] = []
    for part in split_pattern(pattern):
        if part is None:
            continue
        for piece in _ESCAPED.split(part):
            words = piece.split()
            for i in range(max(len(words) - _WORD_WINDOW + 1, 0)):
                window = " ".join(words[i : i + _WORD_WINDOW])
                if len(window) >= 10 and window not in out:
                    out.append(window)
    return out[:_MAX_ANCHORS]


@lru_cache(maxsize=256)
def locate_message(path: str, stamp: Stamp, pattern: str, hint: int) -> tuple[int | None, bool]:
    """(line, exact): where the message stands, nearest `hint`; `exact` False when only part of it was found."""
    lines = read_lines_cached(path, stamp)
    if lines is None:
        return None, False
    text = "\n".join(lines)
    fragment = search_fragment(pattern)
    if fragment:
        hits = fragment_lines(text, fragment)
        if hits:
            return min(hits, key=lambda n: (abs(n - hint), n)), True
    anchors = _anchors(pattern)
    votes: Counter[int] = Counter()
    for anchor in anchors:
        votes.update(fragment_lines(text, anchor))
    if not votes:
        return None, False
    best = max(votes.values())
    if best < min(2, len(anchors)):
        return None, False  # one common phrase is no evidence
    return min((n for n, v in votes.items() if v == best), key=lambda n: (abs(n - hint), n)), False
