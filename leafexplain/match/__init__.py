"""Score records against an error event: a wording found in the message is exact; else a weighted word score decides.

Each record has its own wording and, in `messageVariants`, the wordings of other releases; any of
them found in the message is a hit (score 100), and the output says which wording it was. A compile
error's code (rustc's `E0382`) is enough on its own: the compile records of that code explain it
(score CODE) when their wording is not found; they explain the compile errors of their code only. Only
when no wording of any record is found does the fuzzy score (match/fuzzy.py) compare words. A
record whose pattern is a placeholder alone (a bare `KeyError: 'x'`) explains its exception class
when nothing more specific does, its words in common with another record's included; a class printed with
its module is that library's (`requests.exceptions.ConnectionError` is not the built-in ConnectionError).

A wording is the error of the place it comes from (match/place.py): one found in an event whose qualified class
or raising frame is another library's is marked down below the cut-off, and the parser's errors (SyntaxError
and its subclasses) are not the same error as a runtime exception with the same words (`(unicode error)
'utf-8' codec can't decode byte …` is the parser's, not a UnicodeDecodeError).

An error can carry another inside it: `called Result::unwrap() on an Err value: Torch("...")`, an
`expect` message, a wrapped exception's text. When one record's wording is found inside the value
another record's placeholder took, the inner one is the specific explanation (role "payload",
ranked first) and the outer one explains the wrapper (role "wrapper"). Only such an inner hit may
cross languages (a PyTorch error inside a Rust panic from tch).
"""

from __future__ import annotations

import builtins
from collections.abc import Callable, Sequence

from leafexplain.extract.common import short_class
from leafexplain.libraries import library_hints
from leafexplain.match.place import another_librarys_class, decisive, is_elsewhere
from leafexplain.match.score import CEILING, head_share_needed, may_reach
from leafexplain.models import Candidate, ErrorEvent, Finding, Record
from leafexplain.named import NamedTuple
from leafexplain.records.catalog import NO_CODE, Catalog, catalog_from_records
from leafexplain.records.patterns import (
    MAX_SEARCH_CHARS,
    PatternHit,
    compile_pattern,
    content_words,
    message_words,
    verbatim_fragments,
    wording_cuts,
    wording_heads,
    wording_parts,
)
from leafexplain.regex import lazy_regex

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing
if TYPE_CHECKING:
    from leafexplain.match.fuzzy import FuzzyScore

# At or above this a candidate explains the event. tests/match/test_match.py and the corpus of real
# pastes (tests/corpus/test_pastes.py) hold the cases on both sides of this line.
DEFAULT_THRESHOLD = 85.0
EXACT = 100.0
CLASS_ONLY = 88.0  # a record for an exception class as such: below any wording found, above the cut-off
CODE = 95.0  # a compile record of the error's code, its wording not found (another release's): the same error
# A later part of a wording found opening a line, its start not in the text (records/patterns.wording_parts), or
# its opening sentence ending the text (wording_heads): the error's own words, a few missing.
PART = 92.0
CLASS_MISMATCH_PENALTY = 15.0  # the message fits, the exception class does not
# A long wording found exactly is strong evidence even when a release changed the class it raises.
SPECIFIC_CHARS, SPECIFIC_CLASS_PENALTY = 30, 5.0
# Catch-all classes: libraries move an error from one of these to a class of its own between releases
# (torch's RuntimeError became torch.OutOfMemoryError, IndexError, ValueError ...): a small penalty.
BROAD_CLASSES = frozenset({"Exception", "RuntimeError"})
# The place (match/place.py) says the event is another library's. Its own class printed with its module, or
# another decisive place (place.decisive: its own `raise`, a crate's own panic message): a wording found drops
# below the cut-off, to a near candidate. Only its frame raised it: the wording's record ranks after the frame
# library's own, and words in common must be close (libraries copy another's wording word for word into their
# own `raise`: transformers' `Error(s) in loading state_dict for …` is torch's).
OTHER_CLASS_PENALTY, OTHER_FRAME_PENALTY = 20.0, 10.0
# The parser's errors and the runtime's are different errors, however alike their words.
PARSER_CLASSES = frozenset({"SyntaxError", "IndentationError", "TabError"})
OTHER_KIND_PENALTY = 40.0
# The parser's messages are a closed set of fixed sentences with no values in them: one that is not a record's
# wording is another of its errors, however many words it shares (`/ may appear only once` is not `* argument may
# appear only once`). Words in common with a parser record make it a near candidate, never the explanation.
PARSER_NEAR_ONLY = 60.0
# Class names other languages' errors print too (JavaScript's, Java's and C#'s): a line with one of them is
# Python's only with Python frames or a place around it.
OTHER_LANGUAGES_CLASSES = frozenset({"TypeError", "SyntaxError", "ReferenceError", "Exception", "RangeError"})
LIBRARY_BONUS = 5.0
UNKNOWN_LANGUAGE_PENALTY = 5.0  # a fuzzy score for text that is not even recognisably Rust or Python
NEAR_FLOOR = 40.0
NEAR_COUNT = 3
FUZZY_MESSAGE_CHARS = 4000


def _parser_pair(event: ErrorEvent, error_class: str | None) -> bool:
    """A Python parser's error scored against a record of the parser's."""
    return (
        event.language == "python"
        and short_class(event.error_type or "") in PARSER_CLASSES
        and short_class(error_class or "") in PARSER_CLASSES
    )


class _Scored(NamedTuple):
    """A candidate before its full record is read."""

    index: int
    score: float
    method: str
    span: tuple[int, int] | None
    reasons: tuple[str, ...]
    wording: str | None = None
    role: str | None = None
    literal_chars: int = 0
    pattern: str = ""  # the wording scored (records that share it past the catalog's bound are counted by it)


class _Hit(NamedTuple):
    index: int
    hit: PatternHit
    wording: str | None
    error_class: str | None
    literal_chars: int
    same_language: bool
    pattern: str


_NOT_FOUND = (None, 0)


def _no_count(pattern: str) -> None:
    """The default of Matcher's `count_score`: nothing counted."""


class Matcher:
    """Scores events against a catalog of records; patterns compile only for candidates.

    It asks the catalog only through its interface (records/catalog.py's "What the matcher asks"):
    tests/test_architecture.py holds it to that."""

    def __init__(
        self,
        records: Catalog | Sequence[Record],
        threshold: float = DEFAULT_THRESHOLD,
        count_score: Callable[[str], None] = _no_count,
    ) -> None:
        self.catalog = records if isinstance(records, Catalog) else catalog_from_records(records)
        self.threshold = threshold
        # Told each pattern as it is searched for in a message or scored by words: once per distinct pattern and
        # message (records that share a wording share its score), which tests count.
        self.count_score = count_score
        self._found: dict[str, tuple[PatternHit | None, int]] = {}  # of the message being matched, by pattern
        self._fuzzy_scores: dict[str, FuzzyScore | None] = {}
        self._elsewhere: dict[int, str | None] = {}  # of the event being matched, by row: why its place disagrees

    def _same_language(self, event: ErrorEvent, index: int) -> bool:
        """A Rust panic is not explained by a Python record, nor the other way round (but see payloads); a compile
        error only by the records of its own error code (one without a code, `error: linker `cc` not found`, by the
        records of none), and they explain nothing else (another code is another error, however alike their words)."""
        if event.error_type == "compile":
            return index in self.catalog.rows_with_code(event.code or NO_CODE)
        if self.catalog.keyed_by_code(index):
            return False
        language = self.catalog.language(index)
        return event.language == "unknown" or language in ("unknown", event.language)

    def _hits(self, message: str, index: int, same_language: bool, which: set[int] | None) -> _Hit | None:
        """The record's first wording found in the message: its own, else another release's (of `which`,
        the wordings whose indexed words the message has; None: all)."""
        for number, (pattern, versions, error_class) in enumerate(self.catalog.wordings(index)):
            if which is not None and number not in which:
                continue
            found = self._found.get(pattern)
            if found is None:  # searched for once per message, however many records share the wording
                found = self._found[pattern] = self._search(pattern, message)
            hit, literal_chars = found
            if literal_chars < 0:
                return None  # a class-only record: never a wording hit
            if hit is not None:
                wording = versions or None
                return _Hit(index, hit, wording, error_class, literal_chars, same_language, pattern)
        return None

    def _search(self, pattern: str, message: str) -> tuple[PatternHit | None, int]:
        """Where the pattern is in the message, and its literal characters (-1: a placeholder alone)."""
        if not all(fragment in message for fragment in verbatim_fragments(pattern)):
            return _NOT_FOUND  # a stretch it needs as written is not in the message: it cannot be found there
        self.count_score(pattern)
        compiled = compile_pattern(pattern)
        if compiled.literal_chars == 0:
            return None, -1
        hit = compiled.search(message)
        if hit is None and "`" in pattern:
            # Copied from rendered markdown (an issue, a chat, a blog): its code marks are gone, the words stay.
            hit = compile_pattern(pattern.replace("`", "")).search(message)
        return hit, compiled.literal_chars

    def _class_penalty(
        self, event: ErrorEvent, error_class: str | None, literal_chars: int, index: int | None = None
    ) -> tuple[float, str]:
        """What the event's class and place cost a record's score, and why (empty: nothing to say)."""
        place, where = (0.0, "") if index is None else self._place_penalty(event, index)
        if event.language != "python" or not event.error_type or not error_class:
            return place, where
        event_class, record_class = short_class(event.error_type), short_class(error_class)
        if (event_class in PARSER_CLASSES) != (record_class in PARSER_CLASSES):
            return OTHER_KIND_PENALTY + place, _joined(f"a parser's error is not a runtime one ({error_class})", where)
        if event_class == record_class:
            return place, _joined("exception class agrees", where)
        if other := another_librarys_class(event.error_type, error_class):  # a decisive place, as a qualified class
            return OTHER_CLASS_PENALTY + place, _joined(f"exception class differs ({error_class}): {other}", where)
        broad = {event_class, record_class} & BROAD_CLASSES
        penalty = SPECIFIC_CLASS_PENALTY if literal_chars >= SPECIFIC_CHARS or broad else CLASS_MISMATCH_PENALTY
        return penalty + place, _joined(f"exception class differs ({error_class})", where)

    def _place_penalty(self, event: ErrorEvent, index: int) -> tuple[float, str]:
        """The event's qualified class or raising frame is another library's than the record's repository."""
        if index not in self._elsewhere:
            repo = self.catalog.repo(index)
            # The record's file is read only for an event whose place names a library: most name none.
            self._elsewhere[index] = is_elsewhere(
                event,
                repo,
                lambda: self.catalog.record(index).filePath,
                lambda: [pattern for pattern, _, _ in self.catalog.wordings(index)],
            )
        why = self._elsewhere[index]
        if not why:
            return 0.0, ""
        return (OTHER_CLASS_PENALTY if decisive(why) else OTHER_FRAME_PENALTY), why

    def _exact(self, event: ErrorEvent, hits: list[_Hit]) -> list[_Scored]:
        out: list[_Scored] = []
        for h in hits:
            if not h.same_language:
                continue
            penalty, why = self._class_penalty(
                event, h.error_class or self.catalog.error_class(h.index), h.literal_chars, h.index
            )
            reasons = ("wording found" if h.wording is None else f"wording of {h.wording} found", why)
            out.append(
                _Scored(
                    h.index,
                    EXACT - penalty,
                    "regex",
                    h.hit.span(),
                    tuple(r for r in reasons if r),
                    h.wording,
                    None,
                    h.literal_chars,
                    h.pattern,
                )
            )
        return _layered(out, hits, event.message[:MAX_SEARCH_CHARS])

    def _parts(self, event: ErrorEvent, message: str, wordings_of: dict[int, set[int] | None]) -> list[_Scored]:
        """Records a later part of whose wording opens a line of the message (pasted from the middle), whose
        opening sentence is the whole message's end (pasted up to the middle: its first line alone), or whose
        wording the message stops inside (cut short in a value)."""
        out: list[_Scored] = []
        cut: list[_Scored] = []
        for n in sorted(wordings_of):
            if not self._same_language(event, n):
                continue
            which = wordings_of[n]
            for number, (pattern, versions, error_class) in enumerate(self.catalog.wordings(n)):
                if which is not None and number not in which:
                    continue
                found = next((hit for part in wording_parts(pattern) if (hit := _part_found(part, message))), None)
                said, into = "a later part of the wording opens a line: its start is not in the text", out
                if found is None:
                    found = next((hit for head in wording_heads(pattern) if (hit := _head_found(head, message))), None)
                    said = "the wording's opening sentence ends the text: the rest of the wording is not in it"
                if found is None:
                    found = next((hit for c in wording_cuts(pattern) if (hit := _cut_found(c, message))), None)
                    said, into = "the message stops inside the wording, a value it was writing cut short", cut
                if found is None:
                    continue
                hit, literal = found
                penalty, why = self._class_penalty(event, error_class or self.catalog.error_class(n), literal, n)
                reasons = (said, why)
                kept = tuple(r for r in reasons if r)
                scored = _Scored(n, PART - penalty, "part", hit.span(), kept, versions or None, None, literal, pattern)
                into.append(scored)
                break
        # What a cut keeps may open several wordings (`Error(s) in loading state_dict for {}:` goes on to missing
        # keys, unexpected keys or a size mismatch): then it names none of them.
        return out + cut if len({c.pattern for c in cut}) <= 1 else out

    def _by_code(self, event: ErrorEvent, scored: list[_Scored]) -> list[_Scored]:
        """The compile records of the event's error code: the code agreeing is said beside a wording found, and
        is a match of its own for a record whose wording is not."""
        if event.code is None or event.error_type != "compile":
            return []
        rows = self.catalog.rows_with_code(event.code)
        agreeing = f"error code {event.code} is the record's"
        found = {s.index for s in scored}
        for n, s in enumerate(scored):
            if s.index in rows:
                scored[n] = s._replace(reasons=(*s.reasons, agreeing))
        return [_Scored(n, CODE, "code", None, (agreeing,)) for n in rows if n not in found]

    def _class_only(self, event: ErrorEvent) -> list[_Scored]:
        """The records for the event's exception class as such. Not for a guess (a warning in a log, a paragraph):
        only a record of its words makes one an error."""
        if event.language != "python" or not event.error_type or event.tentative:
            return []
        if short_class(event.error_type) in OTHER_LANGUAGES_CLASSES and not (event.frames or event.location):
            return []  # `TypeError: Cannot read properties of undefined` alone may well be JavaScript's
        out = []
        for n in self.catalog.class_only_rows():
            if same_class(event.error_type, self.catalog.error_class(n)) and self._same_language(event, n):
                out.append(_Scored(n, CLASS_ONLY, "class", None, ("exception class is the record's",)))
        return out

    def _fuzzy(
        self,
        event: ErrorEvent,
        words: list[str],
        candidates: list[int],
        hints: frozenset[str],
        floor: float | None = None,
    ) -> list[_Scored]:
        """Fuzzy scores of the message's content words (`words`); with `floor`, only for records that could reach it
        (the others are left out)."""
        if not candidates:
            return []
        present = set(words)
        out: list[_Scored] = []
        # The ceiling (_may_reach) reaches the floor only with this share of a wording's head in the message
        # (or the whole head, more still): the head index finds those wordings without reading the others.
        share = None if floor is None else head_share_needed(floor, LIBRARY_BONUS)
        if share is not None and share > 0:
            reaching = self.catalog.rows_reaching(present, share)
            candidates = [n for n in candidates if n in reaching]
        if not candidates:
            return []
        # Imported only now: most explanations find a wording, or no record's head is in the message.
        from leafexplain.match.fuzzy import fuzzy_score
        from leafexplain.records.wording_words import wording_words

        weight = self.catalog.weight
        reach: dict[str, bool] = {}
        for n in candidates:
            if not self._same_language(event, n):
                continue
            if floor is not None and not self._may_reach(n, present, floor, reach):
                continue
            best: tuple[float, str, str | None, str | None, str] | None = None
            for pattern, versions, error_class in self.catalog.wordings(n):
                if pattern in self._fuzzy_scores:  # scored once per message, however many records share it
                    scored = self._fuzzy_scores[pattern]
                else:
                    self.count_score(pattern)
                    scored = self._fuzzy_scores[pattern] = fuzzy_score(wording_words(pattern), words, weight)
                if scored is not None and (best is None or scored.score > best[0]):
                    best = (scored.score, scored.reason, versions or None, error_class, pattern)
            if best is None:
                continue
            score, reason, wording, error_class, pattern = best
            reasons = [reason]
            repo = self.catalog.repo(n)
            if repo in hints:
                score = min(score + LIBRARY_BONUS, CEILING)
                reasons.append(f"{repo} in the frames")
            penalty, why = self._class_penalty(event, error_class or self.catalog.error_class(n), 0, n)
            if why:
                reasons.append(why)
            if event.language == "unknown":
                penalty += UNKNOWN_LANGUAGE_PENALTY
                reasons.append("neither a Rust panic nor a Python traceback")
            if _parser_pair(event, error_class or self.catalog.error_class(n)):
                score, penalty = min(score, PARSER_NEAR_ONLY), 0.0
                reasons.append("a parser's message is its wording exactly: near words are another of its errors")
            out.append(_Scored(n, round(score - penalty, 1), "fuzzy", None, tuple(reasons), wording, pattern=pattern))
        return out

    def _may_reach(self, n: int, present: set[str], floor: float, reach: dict[str, bool]) -> bool:
        """Some wording of the record could score `floor` (bonus included) against a message with these words
        (`reach`: what each pattern could, worked out once)."""
        from leafexplain.match.fuzzy import fuzzy_ceiling
        from leafexplain.records.wording_words import wording_words

        for pattern, _, _ in self.catalog.wordings(n):
            if pattern not in reach:
                ceiling = fuzzy_ceiling(wording_words(pattern), present, self.catalog.weight)
                reach[pattern] = may_reach(ceiling, LIBRARY_BONUS, floor)
            if reach[pattern]:
                return True
        return False

    def match(self, event: ErrorEvent, *, threshold: float | None = None, matches_only: bool = False) -> Finding:
        """Wording hits when there are any; otherwise the class and fuzzy scores. Best first, deterministic.

        `matches_only`: only the matches are wanted (an event kept only when a record explains it), so
        records whose fuzzy score could not reach the cut-off are not scored, and `near` may lack some.
        """
        cut = self.threshold if threshold is None else threshold
        message = event.message[:MAX_SEARCH_CHARS]
        hints = library_hints(event)
        self._found, self._fuzzy_scores = {}, {}  # each pattern's search and score, for this message
        self._elsewhere = {}
        candidates, whole, partly, unlisted = self.catalog.candidates(message_words(message))
        # A class's record has no wording to find (the class pass below weighs it): not searched for, nor its
        # wordings read, for every message (70 of them, a third of an explanation's matching).
        for n in self.catalog.class_only_rows():
            whole.pop(n, None)
        hits = [h for n in sorted(whole) if (h := self._hits(message, n, self._same_language(event, n), whole[n]))]
        if event.tentative:  # found, but as prose or a printed value: ruled out, by the word score too
            ruled_out = {h.index for h in hits if not _stands_as_error(h, message)}
            hits = [h for h in hits if h.index not in ruled_out]
            candidates = [n for n in candidates if n not in ruled_out]
        scored = self._exact(event, hits)
        scored += self._by_code(event, scored)
        words: list[str] = []
        if not any(s.score >= cut for s in scored):
            # And the records whose wording's head clause the message has all of (the head index): its opening
            # sentence may end the message, the rest not pasted (records/patterns.wording_heads).
            words = content_words(event.message[:FUZZY_MESSAGE_CHARS])  # the fuzzy pass reads them too
            heads = dict.fromkeys(self.catalog.rows_reaching(set(words), 1.0))
            scored += self._parts(event, message, {**heads, **partly, **whole})
        if not any(s.score >= cut for s in scored):
            # Words in common with a record of this error come before the record of its class alone.
            rest = [n for n in candidates if n not in {s.index for s in scored}]
            scored += self._fuzzy(event, words, rest, hints, cut if matches_only else None)
            if not any(s.score >= cut for s in scored):
                scored += self._class_only(event)
        catalog = self.catalog
        scored.sort(
            key=lambda c: (
                c.role != "payload",
                -c.score,
                ("regex", "code", "part", "class", "fuzzy").index(c.method),
                c.span[0] if c.method == "part" and c.span else 0,  # of two parts found, the one pasted first
                -c.literal_chars,
                c.wording is not None,
                catalog.repo(c.index) not in hints,
                catalog.record_id(c.index),
            )
        )
        above = [c for c in scored if c.score >= cut]
        near = [] if above else [c for c in scored if NEAR_FLOOR <= c.score < cut][:NEAR_COUNT]
        # Records left out behind a wording that matched (the catalog's bound): counted, not scored.
        left_out = sum(unlisted.get(p, 0) for p in {c.pattern for c in above}) if unlisted else 0
        # Only now are full records read: for what is shown.
        matches, close = tuple(map(self._full, above)), tuple(map(self._full, near))
        return Finding(event=event, matches=matches, near=close, unlisted=left_out)

    def _full(self, scored: _Scored) -> Candidate:
        return Candidate(
            self.catalog.record(scored.index),
            scored.score,
            scored.method,  # type: ignore[arg-type]
            scored.span,
            scored.reasons,
            scored.wording,
            scored.role,  # type: ignore[arg-type]
        )


def same_class(printed: str, record_class: str | None) -> bool:
    """The class an event printed is the class a record is for. A built-in's record (`ConnectionError`) is not
    for a library's class of that name (`requests.exceptions.ConnectionError`); a library's record is for its
    class under any of its module paths (`torch.cuda.OutOfMemoryError` is `torch.OutOfMemoryError`) and under
    its name alone (IPython prints `CalledProcessError`), unless that name is a built-in's."""
    if not record_class:
        return False
    printed = printed.removeprefix("builtins.")
    if short_class(printed) != short_class(record_class):
        return False
    if "." not in record_class:
        return "." not in printed
    if "." not in printed:
        return not hasattr(builtins, printed)
    # A module's C accelerator is its name with an underscore: `_pickle.PicklingError` is pickle's class.
    return printed.split(".", 1)[0].lstrip("_") == record_class.split(".", 1)[0].lstrip("_")


def _joined(*reasons: str) -> str:
    return "; ".join(r for r in reasons if r)


# Before an error's wording in a sentence: what quotes it, sets it in bold or code, or opens brackets.
_QUOTING = "*_`'\"“‘«(["
_QUOTES = "`'\"‘’“”«»"
_WORD = lazy_regex(r"[^\W\d_]{2,}")


def _stands_as_error(hit: _Hit, message: str) -> bool:
    """In text that is only a guess (a paragraph of a paste, a program's output), a wording found counts
    when it stands as an error's message does where it is printed or quoted: at the start of its line,
    after a label (`Error: `, `panicked at '`, `IndentationError ; `), or in quotes, bold or code within
    a sentence. Not inside a value a program printed and went on (`gave: Err(ParseIntError { .. })`),
    and a short wording not as words of a sentence (`the trait X is not implemented for Y`)."""
    begin = hit.hit.begin  # a wording that opens with a placeholder stands where its value does
    lead = message[message.rfind("\n", 0, begin) + 1 : begin]
    if lead.endswith(("Err(", "Ok(", "Some(")):
        return False
    if hit.literal_chars >= SPECIFIC_CHARS or message[begin : begin + 1] in _QUOTES:
        return True  # a long wording is telling anywhere; `'NoneType' object has ...` opens with a quoted value
    return _opens_message(lead)


def _part_found(part: str, message: str) -> tuple[PatternHit, int] | None:
    """A wording's later part in the message, where a pasted message begins: opening its line (after marks, a
    timestamp or a label), or quoted."""
    return _found_opening(part, message, to_the_end=False)


def _head_found(head: str, message: str) -> tuple[PatternHit, int] | None:
    """A wording's opening sentence in the message where a pasted message begins, with nothing after it but its
    period and the marks that close a quote: the message stops where the wording's first sentence does."""
    return _found_opening(head, message, to_the_end=True)


def _cut_found(cut: str, message: str) -> tuple[PatternHit, int] | None:
    """A wording cut short (patterns.wording_cuts) where a pasted message begins, ending the message inside the
    value its last placeholder was writing: one run of characters, no space in it (a cut that took words would
    be any error that shares the wording's opening: `{}() takes {}` is every call's argument error)."""
    found = _found_opening(cut, message, to_the_end=True)
    if found is None or not found[0].literals:
        return None
    value = message[found[0].literals[-1][1] : found[0].finish].strip(" \t\n.*_`'\"”’)")
    return found if value and not any(ch.isspace() for ch in value) else None


def _found_opening(pattern: str, message: str, *, to_the_end: bool) -> tuple[PatternHit, int] | None:
    """The pattern found where a message begins on its line (and, `to_the_end`, ending the message), with its
    literal characters."""
    if not all(fragment in message for fragment in verbatim_fragments(pattern)):
        return None
    compiled = compile_pattern(pattern)
    hit = compiled.search(message)
    if hit is None or (to_the_end and message[hit.finish :].strip(" \t\n.*_`'\"”’)")):
        return None
    lead = message[message.rfind("\n", 0, hit.begin) + 1 : hit.begin]
    return (hit, compiled.literal_chars) if _opens_message(lead) else None


def _opens_message(lead: str) -> bool:
    """What stands before a wording on its line leaves it where an error's message begins: nothing but marks,
    numbers and a timestamp; a label and its colon; a quote, bold or code mark; a code fence opened within the
    line (a paste whose Markdown lost its line breaks); CJK text (English there is a quote)."""
    last = lead.rstrip()[-1:]
    if not _WORD.search(lead) or last in (":", ";") or lead[-1:] in _QUOTING or last >= "\u3000":
        return True
    if lead.rstrip().endswith("```"):
        return True
    return lead.split()[-1].strip("[]<>|") in _LOG_LEVELS  # `2024-01-02 12:00:01 ERROR <message>`


_LOG_LEVELS = frozenset({"ERROR", "FATAL", "CRITICAL", "CRIT", "PANIC", "EXCEPTION", "SEVERE", "E"})


def _inside_value(inner: PatternHit, outer: PatternHit, message: str) -> bool:
    """The inner hit's wording lies in the message where the outer hit's placeholder took a value.

    Where the two share only punctuation (`value: ` then `: ParseIntError`), that is not a clash.
    """
    begin = inner.literals[0][0] if inner.literals else inner.begin
    if not (outer.begin <= begin and inner.finish <= outer.finish) or (begin, inner.finish) == outer.span():
        return False
    for start, end in outer.literals:
        shared = message[max(start, begin) : min(end, inner.finish)]
        if any(ch.isalnum() for ch in shared):
            return False
    return True


def _layered(scored: list[_Scored], hits: list[_Hit], message: str) -> list[_Scored]:
    """Mark errors carried inside another's value: the inner one is the payload, the outer one the wrapper."""
    wrappers: set[int] = set()
    payloads: list[_Scored] = []
    for inner in hits:
        outer = next((o for o in hits if o.same_language and _inside_value(inner.hit, o.hit, message)), None)
        if outer is None:
            continue
        wrappers.add(outer.index)
        reasons = ("wording found inside another error's message",)
        kept = next((s for s in scored if s.index == inner.index), None)
        if kept is not None:
            payloads.append(kept._replace(role="payload"))
        else:  # another language's error carried in this one's message
            payloads.append(
                _Scored(
                    inner.index,
                    EXACT,
                    "regex",
                    inner.hit.span(),
                    reasons,
                    inner.wording,
                    "payload",
                    inner.literal_chars,
                )
            )
    payload_indexes = {p.index for p in payloads}
    out = [s._replace(role="wrapper") if s.index in wrappers else s for s in scored if s.index not in payload_indexes]
    return payloads + out
