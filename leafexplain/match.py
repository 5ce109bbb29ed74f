"""Score records against an error event: a regex hit is exact; otherwise a fuzzy score decides."""

from __future__ import annotations

from collections.abc import Sequence

from leafexplain.extract.common import short_class
from leafexplain.libraries import library_hints
from leafexplain.models import Candidate, ErrorEvent, Finding, Record
from leafexplain.records.catalog import Catalog, catalog_from_records
from leafexplain.records.patterns import MAX_SEARCH_CHARS, compile_pattern, content_words, message_words

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
FUZZY_MESSAGE_CHARS = 2000
MIN_FUZZY_WORDS = 2  # a one-word pattern would match any message that has the word


class Matcher:
    """Scores events against a catalog of records; patterns compile only for candidates."""

    def __init__(self, records: Catalog | Sequence[Record], threshold: float = DEFAULT_THRESHOLD) -> None:
        self.catalog = records if isinstance(records, Catalog) else catalog_from_records(records)
        self.threshold = threshold
        self._content: dict[int, list[str]] = {}

    @property
    def records(self) -> list[Record]:
        return self.catalog.all_records()

    def _candidates(self, message: str) -> list[int]:
        index = self.catalog.token_index
        found: set[int] = set(self.catalog.unindexed)
        for word in message_words(message):
            found.update(index.get(word, ()))
        return sorted(found)

    def _applies(self, event: ErrorEvent, index: int) -> bool:
        """A Rust panic never matches a Python record, nor the other way round."""
        language = self.catalog.languages[index]
        return event.language == "unknown" or language in ("unknown", event.language)

    def _regex(self, event: ErrorEvent, index: int) -> Candidate | None:
        hit = compile_pattern(self.catalog.patterns[index]).search(event.message[:MAX_SEARCH_CHARS])
        if not hit:
            return None
        return self._adjust(event, index, EXACT, "regex", (hit.start(), hit.end()), ["pattern matched"])

    def _fuzzy(self, event: ErrorEvent, index: int, hints: frozenset[str], words: list[str]) -> Candidate | None:
        from rapidfuzz.distance import LCSseq  # only a message no pattern hits needs it

        if index not in self._content:
            self._content[index] = content_words(compile_pattern(self.catalog.patterns[index]).literal)
        wanted = self._content[index]
        if len(wanted) < MIN_FUZZY_WORDS:
            return None
        # Only the stretch of the message where these words could stand is compared, so that a
        # long message does not collect a pattern's words from all over.
        window = words[: 4 * len(wanted) + 20]
        share = LCSseq.similarity(wanted, window) / len(wanted)
        score = min(100.0 * share, FUZZY_CEILING)
        reasons = [f"{share:.0%} of the pattern's words, in order"]
        repo = self.catalog.repos[index]
        if repo in hints:
            score = min(score + LIBRARY_BONUS, FUZZY_CEILING)
            reasons.append(f"{repo} in the frames")
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
        error_class = self.catalog.classes[index]
        if event.language == "python" and event.error_type and error_class:
            if short_class(event.error_type) == short_class(error_class):
                reasons.append("exception class agrees")
            else:
                score -= CLASS_MISMATCH_PENALTY
                reasons.append(f"exception class differs ({error_class})")
        return _Scored(index, round(score, 1), method, span, tuple(reasons))  # type: ignore[return-value]

    def match(self, event: ErrorEvent, *, threshold: float | None = None) -> Finding:
        """Regex hits when there are any; otherwise fuzzy scores. Best first, deterministic."""
        cut = self.threshold if threshold is None else threshold
        hints = library_hints(event)
        candidates = [n for n in self._candidates(event.message) if self._applies(event, n)]
        scored = [c for n in candidates if (c := self._regex(event, n)) is not None]
        if not scored:
            words = content_words(event.message[:FUZZY_MESSAGE_CHARS])
            scored = [c for n in candidates if (c := self._fuzzy(event, n, hints, words)) is not None]
        catalog = self.catalog
        scored.sort(
            key=lambda c: (
                -c.score,
                c.method != "regex",
                catalog.repos[c.index] not in hints,
                -compile_pattern(catalog.patterns[c.index]).literal_chars,
                catalog.ids[c.index],
            )
        )
        above = [c for c in scored if c.score >= cut]
        near = [] if above else [c for c in scored if NEAR_FLOOR <= c.score < cut][:NEAR_COUNT]
        # Only now are full records read: for what is shown.
        return Finding(
            event=event, matches=tuple(self._full(c) for c in above), near=tuple(self._full(c) for c in near)
        )

    def _full(self, scored: _Scored) -> Candidate:
        record = self.catalog.record(scored.index)
        return Candidate(record, scored.score, scored.method, scored.span, scored.reasons)  # type: ignore[arg-type]


class _Scored:
    """A candidate before its full record is read."""

    __slots__ = ("index", "method", "reasons", "score", "span")

    def __init__(
        self, index: int, score: float, method: str, span: tuple[int, int] | None, reasons: tuple[str, ...]
    ) -> None:
        self.index, self.score, self.method, self.span, self.reasons = index, score, method, span, reasons
