"""The fuzzy score: how much of a wording's meaning a message carries, read the way a person compares them.

A wording is its content words in order (no stop words, no numbers), each weighted by how rare it
is among the records (a word every other record has tells nothing). A message scores by the
weight of the wording's words it has in the same order (a longest common subsequence), with:

- the head counting more: the first clause names the error ("Expected all tensors to be on the
  same device"); later clauses add detail that releases reword or drop (the blend of the two is
  match/score.py's, beside its inverse, with which the matcher leaves out records that cannot reach
  the cut-off);
- a message cut short (a paste, or an older release that printed less) not penalised for the
  words after its end, when it carries a good share of the wording;
- words found far apart not counting together: the matched words must stand about as close as
  in the wording, placeholders aside (a placeholder takes a value of any length), so that a long
  text does not collect a wording's words from all over.

Everything here is regex-free; the alignment is a small table (`common_words`), its size the wording's words
times the message's window.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import pairwise

from leafexplain.match.score import CEILING, blended
from leafexplain.named import NamedTuple
from leafexplain.records.wording_words import HEAD_MIN_WORDS, WordingWords

MIN_WORDS = 3  # a wording of fewer content words would match too much by chance
# A message with the whole head (records/wording_words.py), in order and close together, is the same error in
# another release's words: it scores at least HEAD_FLOOR.
HEAD_FLOOR = 88.0
# A message that ends early must still carry this share of the wording's weight, or its whole head
# and this many words.
CUT_SHORT_SHARE, CUT_SHORT_MIN_WORDS = 0.5, 5
WINDOW_WORDS = 400  # a placeholder may hold a long value (a list of missing keys): look this far
VALUE_WORDS = 6  # words a placeholder's value may take before the next word counts as far away
GAP_SLACK = 3
EXTRA_WORD_COST = 0.03  # each unexplained word inside the matched stretch, beyond the allowance
MAX_EXTRA_COST = 0.3


class FuzzyScore(NamedTuple):
    score: float
    reason: str


def fuzzy_ceiling(wording: WordingWords, present: set[str] | frozenset[str], weight: Callable[[str], float]) -> float:
    """The most `fuzzy_score` can give this wording against a message whose content words are `present`,
    found without aligning anything: only the wording's words the message has can
    count, so the head share is at most theirs, and the rest at most all of it."""
    words = wording.words
    if len(words) < MIN_WORDS or not any(w in present for w in words):
        return 0.0
    head_weights = [weight(w) for w in words[: wording.head]]
    head_total = sum(head_weights) or 1.0
    head = sum(wt for w, wt in zip(words[: wording.head], head_weights, strict=True) if w in present) / head_total
    if head >= 0.999 and wording.head >= HEAD_MIN_WORDS:  # the whole head: the floor may lift the score
        return CEILING
    return min(blended(head, 1.0), CEILING)


def fuzzy_score(wording: WordingWords, message: list[str], weight: Callable[[str], float]) -> FuzzyScore | None:
    """The score of a message (its content words) against one wording, 0-99; None when too short to judge."""
    words = wording.words
    if len(words) < MIN_WORDS:
        return None
    vocabulary = set(words)
    start = next((n for n, w in enumerate(message) if w in vocabulary), None)
    if start is None:
        return FuzzyScore(0.0, "no word in common")
    window = message[start : start + WINDOW_WORDS]
    pairs = _closest_run(common_words(words, window), wording, weight)
    weights = [weight(w) for w in words]
    total = sum(weights)
    if not pairs or total <= 0:
        return FuzzyScore(0.0, "no word in common")
    matched = sum(weights[a] for a, _ in pairs)
    last_word, last_position = pairs[-1]
    # The message ends right after the words it shares: it was cut short, or its release printed less.
    head_whole = all(a in {p for p, _ in pairs} for a in range(wording.head))
    enough = matched >= CUT_SHORT_SHARE * total or (head_whole and len(pairs) >= CUT_SHORT_MIN_WORDS)
    # After the last shared word only the value of a placeholder may follow, if one comes next.
    trailing = len(window) - last_position - 1
    room = VALUE_WORDS if last_word + 1 < len(words) and wording.holes[last_word + 1] else 0
    cut_short = last_word < len(words) - 1 and trailing <= room and enough
    counted = sum(weights[: max(last_word + 1, wording.head)]) if cut_short else total
    head_total = sum(weights[: wording.head]) or 1.0
    head = sum(weights[a] for a, _ in pairs if a < wording.head) / head_total
    body = matched / counted
    score = blended(head, body)
    if head == 1.0 and wording.head >= HEAD_MIN_WORDS:
        score = max(score, HEAD_FLOOR + (CEILING - HEAD_FLOOR) * body)
    span = pairs[-1][1] - pairs[0][1] + 1
    allowance = len(pairs) + VALUE_WORDS * sum(wording.holes[pairs[0][0] + 1 : last_word + 1]) + GAP_SLACK
    extra = max(span - allowance, 0)
    score *= 1.0 - min(EXTRA_WORD_COST * extra, MAX_EXTRA_COST)
    reason = f"{body:.0%} of the wording's weight in order" + (
        ", the message ends before the wording does" if cut_short else ""
    )
    if head == 1.0 and wording.head >= HEAD_MIN_WORDS:
        reason += ", its first clause whole"
    return FuzzyScore(round(min(score, CEILING), 1), reason)


def common_words(words: list[str], window: list[str]) -> list[tuple[int, int]]:
    """The longest run of words the two share in order (their longest common subsequence), as pairs of places,
    each of a shared word the latest it can be in both lists (a word repeated: its last place).

    A dynamic programme over the two lists: a wording has a few dozen words and a message's window is cut at
    the first of them, so the table is small; written here rather than imported from rapidfuzz, whose import
    (its C metrics and `typing`) costs an explanation of an unknown error 5 to 10 ms for this one use."""
    rows = len(words)
    # longest[i][j]: the longest common subsequence of words[:i] and window[:j]
    longest = [[0] * (len(window) + 1) for _ in range(rows + 1)]
    for i, word in enumerate(words):
        above, row = longest[i], longest[i + 1]
        for j, other in enumerate(window):
            row[j + 1] = above[j] + 1 if word == other else max(row[j], above[j + 1])
    pairs: list[tuple[int, int]] = []
    i, j = rows, len(window)
    while i and j:
        if longest[i - 1][j] == longest[i][j]:
            i -= 1
        elif longest[i][j - 1] == longest[i][j]:
            j -= 1
        else:  # neither list can give up its last word: the two are the same word, shared
            pairs.append((i - 1, j - 1))
            i, j = i - 1, j - 1
    return pairs[::-1]


def _closest_run(
    pairs: list[tuple[int, int]], wording: WordingWords, weight: Callable[[str], float]
) -> list[tuple[int, int]]:
    """The heaviest stretch of aligned words that stand about as close in the message as in the wording."""
    if not pairs:
        return pairs
    runs: list[list[tuple[int, int]]] = [[pairs[0]]]
    for (a0, b0), (a1, b1) in pairwise(pairs):
        allowed = (a1 - a0) + VALUE_WORDS * sum(wording.holes[a0 + 1 : a1 + 1]) + GAP_SLACK
        if b1 - b0 > allowed:
            runs.append([])
        runs[-1].append((a1, b1))
    return max(runs, key=lambda run: sum(weight(wording.words[a]) for a, _ in run))
