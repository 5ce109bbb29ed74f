"""The fuzzy score's formula and its inverse, side by side: what a head share scores, and the head share a score needs.

A fuzzy score (match/fuzzy.py) blends two shares of a wording's weight that a message holds: of its
head clause (the first clause, records/wording_words.py), and of the whole wording. Before scoring
anything, the matcher asks the head index (records/) for the records whose head words in the message
weigh at least `head_share_needed(floor, bonus)` of their head: no other record can reach `floor`,
even with the rest of its wording whole. The two are one formula read both ways, kept here together
so that a change to one is a change to the other (tests/test_match.py checks that one inverts the
other). This module imports nothing: the matcher asks it before it knows whether any record is to be
scored, and fuzzy.py is imported only then.
"""

from __future__ import annotations

HEAD_SHARE = 0.4  # of a fuzzy score: the head clause's; the rest is the whole wording's
CEILING = 99.0  # only a wording found in the message is exact
ROUNDING = 0.1  # a score is rounded to a tenth: a ceiling a tenth under a floor may still round up to it


def blended(head: float, whole: float) -> float:
    """The score of a message holding these shares (0 to 1) of a wording's head weight and of its whole weight."""
    return 100.0 * (HEAD_SHARE * head + (1 - HEAD_SHARE) * whole)


def head_share_needed(floor: float, bonus: float = 0.0) -> float:
    """The inverse of `blended` with the whole wording held: the least head share whose score, with `bonus`
    added and rounded, could reach `floor`. A message whose head share of a wording is less scores below it.
    Above the ceiling no head share is enough (infinity): a fuzzy score never passes CEILING, whatever it holds."""
    if floor > CEILING + ROUNDING:
        return float("inf")
    return (floor - ROUNDING - bonus - 100.0 * (1 - HEAD_SHARE)) / (100 * HEAD_SHARE)


def may_reach(ceiling: float, bonus: float, floor: float) -> bool:
    """A score of at most `ceiling`, with `bonus` added (at most CEILING) and rounded, could reach `floor`."""
    return min(ceiling + bonus, CEILING) + ROUNDING >= floor
