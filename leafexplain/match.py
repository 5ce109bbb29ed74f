"""Score records against an error event: a regex hit is exact; otherwise a fuzzy score decides."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from rapidfuzz.distance import LCSseq

from leafexplain.models import Candidate, ErrorEvent, Match, Record
from leafexplain.patterns import MAX_SEARCH_CHARS, CompiledPattern, compile_pattern, content_words, message_words

# Fuzzy scores at or above this count as a match. The fuzzy score is the share of a pattern's
# content words that the message has, in order (a longest common subsequence of words), so a
# release that adds or rewords a little still matches (RefCell's `already borrowed:
# BorrowMutError` became `RefCell already borrowed`), while a message that differs in a word
# that matters (`attempt to add with overflow` / `attempt to shift left with overflow`) does
# not. tests/test_match.py holds the cases on both sides of this line.
DEFAULT_THRESHOLD = 85.0
EXACT = 100.0
FUZZY_CEILING = 99.0  # only a regex hit is exact
CLASS_MISMATCH_PENALTY = 15.0
LIBRARY_BONUS = 5.0
NEAR_FLOOR = 40.0
NEAR_COUNT = 3
# The rarest words of each pattern go into the candidate index: a regex hit needs every
# literal word to be present, so any one of them finds it; two give fuzzy matches a chance
# when a release reworded the rest.
INDEX_WORDS_PER_RECORD = 2
FUZZY_MESSAGE_CHARS = 2000
MIN_FUZZY_WORDS = 2  # a one-word pattern would match any message that has the word

_CRATE = re.compile(
    r"(?:^|/)(burn(?:-[a-z0-9]+)*)-\d+\.\d+\.\d+[^/]*/|(?:^|/)crates/(burn[a-z0-9-]*)/|\b(burn_[a-z0-9_]+)::"
)


def library_hints(event: ErrorEvent) -> frozenset[str]:
    """Repositories evident in the event's frames and location."""
    hints: set[str] = set()
    frames = list(event.frames) + ([event.location] if event.location else [])
    for frame in frames:
        text = f"{frame.file} {frame.function or ''}"
        if "/rustc/" in text or re.search(r"(^|/)library/(std|core|alloc)/", text):
            hints.add("rust-lang/rust")
        if _CRATE.search(text):
            hints.add("tracel-ai/burn")
        if re.search(r"[/\\]torch[/\\]", text):
            hints.add("pytorch/pytorch")
        if re.search(r"[/\\]lib(64)?[/\\]python3(\.\d+)?[/\\](?!.*(site|dist)-packages)", text):
            hints.add("python/cpython")
    return frozenset(hints)


def _short_class(name: str | None) -> str:
    return (name or "").rsplit(".", 1)[-1]


class Matcher:
    """Records compiled once, indexed by their rarest literal words."""

    def __init__(self, records: Sequence[Record], threshold: float = DEFAULT_THRESHOLD) -> None:
        self.records = list(records)
        self.threshold = threshold
        self._compiled: list[CompiledPattern] = [compile_pattern(r.messagePattern) for r in self.records]
        self._content: list[list[str]] = [content_words(cp.literal) for cp in self._compiled]
        frequency: Counter[str] = Counter()
        for cp in self._compiled:
            frequency.update(cp.tokens)
        self._index: dict[str, list[int]] = {}
        self._unindexed: list[int] = []
        for n, cp in enumerate(self._compiled):
            rare = sorted(cp.tokens, key=lambda w: (frequency[w], -len(w), w))[:INDEX_WORDS_PER_RECORD]
            if not rare:
                self._unindexed.append(n)
            for word in rare:
                self._index.setdefault(word, []).append(n)

    def _candidates(self, message: str) -> list[int]:
        found: set[int] = set(self._unindexed)
        for word in message_words(message):
            found.update(self._index.get(word, ()))
        return sorted(found)

    def _applies(self, event: ErrorEvent, index: int) -> bool:
        """A Rust panic never matches a Python record, nor the other way round."""
        language = self.records[index].language
        return event.language == "unknown" or language in ("unknown", event.language)

    def _regex(self, event: ErrorEvent, index: int, hints: frozenset[str]) -> Candidate | None:
        hit = self._compiled[index].regex.search(event.message[:MAX_SEARCH_CHARS])
        if not hit:
            return None
        return self._adjust(event, index, EXACT, "regex", (hit.start(), hit.end()), ["pattern matched"])

    def _fuzzy(self, event: ErrorEvent, index: int, hints: frozenset[str], words: list[str]) -> Candidate | None:
        wanted = self._content[index]
        if len(wanted) < MIN_FUZZY_WORDS:
            return None
        # Only the stretch of the message where these words could stand is compared, so that a
        # long message does not collect a pattern's words from all over.
        window = words[: 4 * len(wanted) + 20]
        share = LCSseq.similarity(wanted, window) / len(wanted)
        score = min(100.0 * share, FUZZY_CEILING)
        reasons = [f"{share:.0%} of the pattern's words, in order"]
        record = self.records[index]
        if record.repo in hints:
            score = min(score + LIBRARY_BONUS, FUZZY_CEILING)
            reasons.append(f"{record.repo} in the frames")
        return self._adjust(event, index, score, "fuzzy", None, reasons)

    def _adjust(
        self,
        event: ErrorEvent,
        index: int,
        score: float,
        method: str,
        span: tuple[int, int] | None,
        reasons: list[str],
    ) -> Candidate:
        record = self.records[index]
        if event.language == "python" and event.error_type and record.errorClass:
            if _short_class(event.error_type) == _short_class(record.errorClass):
                reasons.append("exception class agrees")
            else:
                score -= CLASS_MISMATCH_PENALTY
                reasons.append(f"exception class differs ({record.errorClass})")
        return Candidate(record=record, score=round(score, 1), method=method, span=span, reasons=tuple(reasons))  # type: ignore[arg-type]

    def match(self, event: ErrorEvent, *, threshold: float | None = None) -> Match:
        """Regex hits when there are any; otherwise fuzzy scores. Best first, deterministic."""
        cut = self.threshold if threshold is None else threshold
        hints = library_hints(event)
        candidates = [n for n in self._candidates(event.message) if self._applies(event, n)]
        scored = [c for n in candidates if (c := self._regex(event, n, hints)) is not None]
        if not scored:
            words = content_words(event.message[:FUZZY_MESSAGE_CHARS])
            scored = [c for n in candidates if (c := self._fuzzy(event, n, hints, words)) is not None]
        scored.sort(
            key=lambda c: (
                -c.score,
                c.method != "regex",
                c.record.repo not in hints,
                -compile_pattern(c.record.messagePattern).literal_chars,
                c.record.id,
            )
        )
        above = tuple(c for c in scored if c.score >= cut)
        near = () if above else tuple(c for c in scored if NEAR_FLOOR <= c.score < cut)[:NEAR_COUNT]
        return Match(event=event, matches=above, near=near)
