"""Turn a record's messagePattern into a linear-time matcher, its literal text, and its index tokens.

A pattern is literal pieces with wildcards (placeholders) between them. One regex with `(.*?)`
wildcards can take Python's backtracking engine exponential time, and a pattern from a foreign
record is untrusted; so each literal piece is searched for on its own, from where the previous one
ended. A piece's regex has no wildcard (escaped characters, quote classes, whitespace runs between
words), so its matches have one length per start and its leftmost match is also the one that ends
first. Taking each piece at its leftmost position therefore finds a match whenever the wildcard
regex has one, starting at the same place, in time linear in the message for each piece.
"""

from __future__ import annotations

import re
from functools import lru_cache

from leafexplain.named import NamedTuple
from leafexplain.regex import compiled, lazy_regex

# Placeholders from the languages whose messages we explain: Rust/Python format braces
# ({}, {:?}, {0}, {name}, {name:?}), printf directives (%s, %d, %.200s, %zd, CPython's %U),
# and the escapes for literal braces and percent signs. The space flag is left out on
# purpose so that literal text such as "50% done" is not read as a directive.
_TOKEN = lazy_regex(
    r"\{\{|\}\}|%%"
    r"|\{[^{}\s]{0,40}\}"
    r"|%[-+#0]*(?:\d+|\*)?(?:\.(?:\d+|\*))?(?:hh|h|ll|l|z|t|j|L)?[sdiuxXfFeEgGcrpaAUSRVo]"
)
_ESCAPES = {"{{": "{", "}}": "}", "%%": "%"}

QUOTES = "'\u2018\u2019`\"\u201c\u201d"
_QUOTE_CLASS = "[" + re.escape(QUOTES) + "]"
WORD = lazy_regex(r"[A-Za-z0-9]+")
_SPACE = lazy_regex(r"\s+")
_SPACE_RUNS = lazy_regex(r"(\s+)")

# Messages longer than this are cut before the search: the part of a message that identifies
# an error is near its start (the search is linear anyway; this keeps its constant small).
MAX_SEARCH_CHARS = 8192


class PatternText(NamedTuple):
    """What a pattern says, without compiling it: cheap enough for 100,000 records."""

    literal: str  # the literal parts joined by single spaces, for fuzzy scoring
    literal_chars: int  # non-space literal characters: how specific the pattern is
    tokens: tuple[str, ...]  # whole words of the literal text, lower case, for the candidate index


Span = tuple[int, int]


class PatternHit(NamedTuple):
    """Where a pattern matched: a small stand-in for `re.Match` (start, end, span)."""

    begin: int
    finish: int
    literals: tuple[Span, ...] = ()  # where each literal piece stands: a wildcard's value lies between them

    def start(self) -> int:
        return self.begin

    def end(self) -> int:
        return self.finish

    def span(self) -> Span:
        return (self.begin, self.finish)


class PieceMatcher(NamedTuple):
    """The literal pieces of a pattern, searched for in order (see the module's docstring)."""

    pieces: tuple[re.Pattern[str], ...]
    leading_wildcard: bool  # the match starts where the search does
    trailing_wildcard: bool  # the match runs on to the end of its line

    def search(self, text: str) -> PatternHit | None:
        pos = 0
        start: int | None = 0 if self.leading_wildcard else None
        literals: list[Span] = []
        for piece in self.pieces:
            found = piece.search(text, pos)
            if found is None:
                return None
            if start is None:
                start = found.start()
            literals.append(found.span())
            pos = found.end()
        if self.trailing_wildcard:
            line_end = text.find("\n", pos)
            pos = len(text) if line_end < 0 else line_end
        return PatternHit(0 if start is None else start, pos, tuple(literals))


class CompiledPattern(NamedTuple):
    matcher: PieceMatcher
    literal: str
    literal_chars: int
    tokens: tuple[str, ...]

    def search(self, text: str) -> PatternHit | None:
        return self.matcher.search(text)


def split_pattern(pattern: str) -> list[str | None]:
    """The pattern as literal strings and None for each placeholder."""
    if "{" not in pattern and "}" not in pattern and "%" not in pattern:
        return [pattern] if pattern else []  # no placeholder nor escape: one literal, and no regex compiled
    parts: list[str | None] = []
    pos = 0
    literal = ""
    for m in _TOKEN.finditer(pattern):
        literal += pattern[pos : m.start()]
        token = m.group()
        if token in _ESCAPES:
            literal += _ESCAPES[token]
        else:
            parts.append(literal)
            parts.append(None)
            literal = ""
        pos = m.end()
    parts.append(literal + pattern[pos:])
    return [p for p in parts if p != ""]


def _escape_word(word: str) -> str:
    return "".join(_QUOTE_CLASS if ch in QUOTES else re.escape(ch) for ch in word)


def _literal_regex(text: str, *, after_wildcard: bool = False, before_wildcard: bool = False) -> str:
    """A literal piece as a regex without wildcards: escaped text, quote classes, whitespace runs.

    Whitespace next to a wildcard needs only one character (the wildcard takes the rest), so the
    piece keeps one length per start; a pattern that starts with whitespace starts at the start of
    a whitespace run, so that a long run is not walked again from each of its characters.
    """
    out: list[str] = []
    chunks = [c for c in _SPACE_RUNS.split(text) if c]
    for n, chunk in enumerate(chunks):
        first, last = n == 0, n == len(chunks) - 1
        if not chunk.isspace():
            out.append(_escape_word(chunk))
            continue
        start = r"(?<!\s)" if first and not after_wildcard else ""
        if last and before_wildcard:
            out.append(start + r"\s")
        elif last:  # the pattern (or the line, for a trailing placeholder) goes on after the whole run
            out.append(start + r"\s+")
        elif first and after_wildcard:
            out.append(r"\s")
        else:  # between words
            out.append(start + r"\s+")
    return "".join(out)


def _bounded_words(parts: list[str | None]) -> list[str]:
    """Words that stand whole in the literal text: not glued to a placeholder."""
    words: list[str] = []
    for i, part in enumerate(parts):
        if part is None:
            continue
        glued_left = i > 0 and parts[i - 1] is None
        glued_right = i + 1 < len(parts) and parts[i + 1] is None
        found = list(WORD.finditer(part))
        for m in found:
            if glued_left and m.start() == 0:
                continue
            if glued_right and m.end() == len(part):
                continue
            words.append(m.group().lower())
    return words


def _text_of(parts: list[str | None]) -> PatternText:
    literal = _SPACE.sub(" ", " ".join(p for p in parts if p is not None)).strip()
    return PatternText(
        literal=literal,
        literal_chars=_literal_chars(parts),
        tokens=tuple(dict.fromkeys(w for w in _bounded_words(parts) if len(w) >= 3)),
    )


def pattern_text(pattern: str) -> PatternText:
    return _text_of(split_pattern(pattern))


def literal_chars(pattern: str) -> int:
    """`pattern_text(pattern).literal_chars` without the pattern's words: validation asks it of every record."""
    return _literal_chars(split_pattern(pattern))


def _literal_chars(parts: list[str | None]) -> int:
    return sum(len("".join(part.split())) for part in parts if part is not None)


@lru_cache(maxsize=4096)
def compile_pattern(pattern: str) -> CompiledPattern:
    parts = split_pattern(pattern)
    last = len(parts) - 1
    pieces = tuple(
        compiled(
            _literal_regex(
                part,
                after_wildcard=n > 0 and parts[n - 1] is None,
                # A trailing placeholder takes the rest of its line after all the whitespace, as the
                # span shows the value; only a wildcard in the middle makes the run's length moot.
                before_wildcard=n + 1 < last and parts[n + 1] is None,
            )
        )
        for n, part in enumerate(parts)
        if part is not None
    )
    matcher = PieceMatcher(
        pieces,
        leading_wildcard=bool(parts) and parts[0] is None,
        # A trailing placeholder takes the rest of its line, so the matched span shows the value.
        trailing_wildcard=bool(parts) and parts[-1] is None,
    )
    text = _text_of(parts)
    return CompiledPattern(matcher, text.literal, text.literal_chars, text.tokens)


# Where a wording's later sentence or line begins: after a full stop, colon or the like and space, before a
# capital; or after a line break (and its indent).
_SENTENCE_START = lazy_regex(r"(?<=[.:;!?])[ \t]+(?=[A-Z])|\n[ \t]*(?=\S)")
PART_MIN_CHARS, PART_MIN_WORDS, HEAD_MIN_WORDS_LEFT = 24, 3, 2


def _sentence_splits(pattern: str) -> list[tuple[str, str]]:
    """The wording cut at each sentence or line start: (what comes before, what follows)."""
    return [(pattern[: b.start()], pattern[b.end() :]) for b in _SENTENCE_START.finditer(pattern)]


@lru_cache(maxsize=4096)
def wording_parts(pattern: str) -> tuple[str, ...]:
    """The later sentences of a wording that tell the error on their own, each from where it begins to the end:
    what a person pastes who copied from the middle (`Tried to allocate 20.00 MiB (GPU 0; ...)` without `CUDA
    out of memory.`; `Missing key(s) in state_dict: ...` without the line that names the model). A part needs
    PART_MIN_CHARS literal characters, PART_MIN_WORDS content words and a placeholder (a sentence that carries
    the error's values; advice such as `Use .reshape(...) instead.` could close another library's message too);
    what it leaves out, two words at least."""
    parts = []
    for head, tail in _sentence_splits(pattern):
        if tail.startswith("{") or len(content_words(head)) < HEAD_MIN_WORDS_LEFT:
            continue
        pieces = split_pattern(tail)
        if None not in pieces or _literal_chars(pieces) < PART_MIN_CHARS:
            continue
        if len(content_words(tail)) >= PART_MIN_WORDS:
            parts.append(tail)
    return tuple(parts)


@lru_cache(maxsize=4096)
def wording_heads(pattern: str) -> tuple[str, ...]:
    """The opening sentences of a wording that state the error on their own, each without its closing period:
    what a person pastes who copied the first line of a message that goes on (sklearn's `This Pipeline instance is
    not fitted yet.` before its `Call 'fit' with ...`, tokio's `Cannot start a runtime from within a runtime`
    before its why), or whose paste a line break cut. A head needs PART_MIN_CHARS literal characters and
    PART_MIN_WORDS content words, and may not end in a placeholder (which would take whatever follows it); what
    it leaves out, two words at least."""
    heads = []
    for head, tail in _sentence_splits(pattern):
        head = head.rstrip(".:; \t")
        pieces = split_pattern(head)
        if len(content_words(tail)) < HEAD_MIN_WORDS_LEFT or not pieces or pieces[-1] is None:
            continue
        if _literal_chars(pieces) >= PART_MIN_CHARS and len(content_words(head)) >= PART_MIN_WORDS:
            heads.append(head)
    return tuple(heads)


@lru_cache(maxsize=4096)
def wording_cuts(pattern: str) -> tuple[str, ...]:
    """The wording up to the end of each placeholder before its last piece, longest first: what a message cut
    short shows, the value it was writing running to the end (an issue title clipped at its length, a line cut at
    a terminal's width: `Error sending result: '<multiprocessing.pool.ExceptionWithT`; ``CUDA error:
    CUBLAS_STATUS_EXECUTION_FAILED`` without its `when calling`). A cut needs PART_MIN_CHARS literal characters
    and PART_MIN_WORDS content words before its placeholder, so that the words it keeps still name the error."""
    cuts = []
    for token in _TOKEN.finditer(pattern):
        end = token.end()
        if token.group() in _ESCAPES or not WORD.search(pattern, end):  # only marks after it: the whole wording
            continue
        cut = pattern[:end]
        if _literal_chars(split_pattern(cut)) >= PART_MIN_CHARS and len(content_words(cut)) >= PART_MIN_WORDS:
            cuts.append(cut)
    return tuple(reversed(cuts))


def placeholder_only(pattern: str) -> bool:
    """One placeholder and no wording (`{}`): a record for an exception class as such, found by its class."""
    return literal_chars(pattern) == 0  # no regex compiled: a table of 100,000 records asks it of each


_NOT_VERBATIM = str.maketrans(dict.fromkeys(QUOTES, " "))


def verbatim_fragments(pattern: str) -> tuple[str, ...]:
    """The stretches of the pattern a message must hold as they are for the pattern to be found in it.

    A literal piece's regex matches its characters as written, but for whitespace runs and quote marks
    (any quote stands for any other): what lies between them is verbatim. Checking these with `in`
    turns most records away before their regexes are compiled, which costs far more than the check.
    """
    # Each placeholder becomes a space (it separates stretches), each escape its character: split_pattern's
    # pieces, in one substitution.
    return tuple(_TOKEN.sub(_literal_or_space, pattern).translate(_NOT_VERBATIM).split())


def _literal_or_space(token: re.Match[str]) -> str:
    return _ESCAPES.get(token.group(), " ")


def message_words(message: str) -> set[str]:
    return {w.lower() for w in WORD.findall(message[:MAX_SEARCH_CHARS])}


# Words too common in error messages to tell one error from another.
STOPWORDS = frozenset(
    [
        "a",
        "an",
        "the",
        "to",
        "of",
        "in",
        "on",
        "at",
        "by",
        "for",
        "is",
        "are",
        "be",
        "was",
        "were",
        "it",
        "its",
        "this",
        "that",
        "with",
        "and",
        "or",
        "not",
        "no",
        "but",
        "as",
        "from",
        "has",
        "have",
        "had",
        "can",
        "cannot",
        "should",
        "must",
        "got",
    ]
)


def content_word(word: str) -> bool:
    """A lower-case word that carries meaning: not one letter, not a number, not a stop word."""
    return len(word) > 1 and not word.isdigit() and word not in STOPWORDS


def content_words(text: str) -> list[str]:
    """The words that carry meaning, in order: lower case, no numbers, no stop words."""
    return [w for w in (m.lower() for m in WORD.findall(text)) if content_word(w)]
