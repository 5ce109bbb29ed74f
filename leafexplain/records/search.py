"""Search over records by relevance: the query's words in each record's class, tags, message and library.

A record is relevant when it holds most of the query's weight: each query word weighs by how rare
it is among the records (a word every record has tells nothing), and counts in full when a record
has it, nearly in full as the start of a longer word (`multipl`), less for a near spelling
of a word no record has (`mutliplied`). Records holding less than SEARCH_CUTOFF of the weight are not shown. Among the
relevant ones, a word in the exception class or a tag ranks above one in the message.

Linear in the query and in the records' text: the query is cut to MAX_QUERY_CHARS (the caller says
so), each record's text to MAX_SEARCH_CHARS, and misspellings are looked up once per query word in
the vocabulary of all records.
"""

from __future__ import annotations

import math
from collections import Counter
from functools import lru_cache

from leafexplain.models import Record
from leafexplain.named import NamedTuple
from leafexplain.records.catalog import Catalog
from leafexplain.records.patterns import MAX_SEARCH_CHARS, content_words

SEARCH_CUTOFF = 0.6  # the share of the query's weight a record must hold to be shown
MAX_QUERY_CHARS = 1000
MAX_QUERY_WORDS = 32
PREFIX_QUALITY = 0.9
MIN_PREFIX = 4
MIN_FUZZY = 5  # shorter words are too easily near another
FUZZY_RATIO = 85.0
MAX_WORD_CHARS = 40  # a longer "word" is no spelling of anything
PHRASE_BONUS = 10.0
# Where a word is found in a record, how much it says about the record.
FIELD_WEIGHTS = {"class": 3.0, "tag": 2.0, "library": 1.5, "message": 1.0, "slug": 0.5}


class SearchResult(NamedTuple):
    rows: list[tuple[Record, float | None]]
    query_cut: bool = False  # the query was longer than MAX_QUERY_CHARS: its start was searched


def _record_words(catalog: Catalog, i: int) -> dict[str, float]:
    """Each word of a record, with the weight of the field it is found in (the heaviest, if several)."""
    words = dict(_message_words(catalog.pattern(i)))
    fields = {
        "class": catalog.error_class(i) or "",
        "tag": " ".join(catalog.tags[i])[:MAX_SEARCH_CHARS],
        "library": catalog.repos[i],
        "slug": catalog.slugs[i].replace("-", " "),
    }
    for field, text in fields.items():
        weight = FIELD_WEIGHTS[field]
        for word in content_words(text):
            if len(word) <= MAX_WORD_CHARS and words.get(word, 0.0) < weight:
                words[word] = weight
    return words


@lru_cache(maxsize=1024)  # records that share a wording share its words: read once while it keeps coming back
def _message_words(pattern: str) -> tuple[tuple[str, float], ...]:
    weight = FIELD_WEIGHTS["message"]
    return tuple(
        (w, weight) for w in dict.fromkeys(content_words(pattern[:MAX_SEARCH_CHARS])) if len(w) <= MAX_WORD_CHARS
    )


def _spellings(word: str, vocabulary: list[str], known: Counter[str]) -> dict[str, float]:
    """The vocabulary's words that `word` may mean, each with how surely: itself, a longer word it
    starts, or a near spelling."""
    from rapidfuzz import fuzz, process

    found = {word: 1.0} if word in known else {}
    if len(word) >= MIN_PREFIX:
        found.update({v: PREFIX_QUALITY for v in vocabulary if v != word and v.startswith(word)})
    if len(word) >= MIN_FUZZY and word not in known:  # a word some record has is no misspelling
        for near, ratio, _ in process.extract(word, vocabulary, scorer=fuzz.ratio, score_cutoff=FUZZY_RATIO, limit=50):
            found.setdefault(near, 0.8 * ratio / 100)
    return found


def search_records(catalog: Catalog, query: str, limit: int) -> SearchResult:
    """The records relevant to `query`, best first, at most `limit`; an exact id or slug comes first."""
    cut = len(query) > MAX_QUERY_CHARS
    query = query[:MAX_QUERY_CHARS]
    exact = catalog.find(query.strip())
    wanted = list(dict.fromkeys(w for w in content_words(query) if len(w) <= MAX_WORD_CHARS))[:MAX_QUERY_WORDS]
    # Two passes over the records, each record's words made again in the second, rather than a table of every
    # record's words kept between them: at 100,000 records that table was most of 180 MB.
    frequency: Counter[str] = Counter()
    for i in range(len(catalog)):
        frequency.update(_record_words(catalog, i).keys())  # counted by record, not by weight
    vocabulary = sorted(frequency)
    total = len(catalog) or 1

    def rarity(word: str) -> float:
        return math.log(1 + total / max(frequency.get(word, 0), 1))

    spellings = {w: _spellings(w, vocabulary, frequency) for w in wanted}
    # A query word no record has still weighs: a query about something else finds nothing.
    weights = {w: max((rarity(v) for v in spellings[w]), default=math.log(1 + total)) for w in wanted}
    whole = sum(weights.values())
    phrase = " ".join(query.lower().split())
    scored = []
    for i in range(len(catalog)):
        words = _record_words(catalog, i)
        held = rank = 0.0
        for w in wanted:
            best = max(((q, words[v]) for v, q in spellings[w].items() if v in words), default=None)
            if best is not None:
                held += weights[w] * best[0]
                rank += weights[w] * best[0] * best[1]
        if phrase and phrase in catalog.pattern(i)[:MAX_SEARCH_CHARS].lower():
            rank += PHRASE_BONUS * whole  # the words as the message has them: what was pasted
        share = 1.0 if i in exact else held / whole if whole else 0.0
        if share >= SEARCH_CUTOFF:
            scored.append((-share, -rank, len(catalog.pattern(i)), catalog.repos[i], catalog.slugs[i], i))
    scored.sort()
    rows = [(catalog.record(entry[-1]), round(-entry[0] * 100, 1)) for entry in scored[:limit]]
    return SearchResult(rows, cut)
