"""Turn a record's messagePattern into a regex, its literal text, and its index tokens."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

# Placeholders from the languages whose messages we explain: Rust/Python format braces
# ({}, {:?}, {0}, {name}, {name:?}), printf directives (%s, %d, %.200s, %zd, CPython's %U),
# and the escapes for literal braces and percent signs. The space flag is left out on
# purpose so that literal text such as "50% done" is not read as a directive.
_TOKEN = re.compile(
    r"\{\{|\}\}|%%"
    r"|\{[^{}\s]{0,40}\}"
    r"|%[-+#0]*(?:\d+|\*)?(?:\.(?:\d+|\*))?(?:hh|h|ll|l|z|t|j|L)?[sdiuxXfFeEgGcrpaAUSRVo]"
)
_ESCAPES = {"{{": "{", "}}": "}", "%%": "%"}

QUOTES = "'\u2018\u2019`\"\u201c\u201d"
_QUOTE_CLASS = "[" + re.escape(QUOTES) + "]"
_WORD = re.compile(r"[A-Za-z0-9]+")
_SPACE = re.compile(r"\s+")

# Messages longer than this are cut before regex search: wildcards in search mode
# backtrack, and the part of a message that identifies an error is near its start.
MAX_SEARCH_CHARS = 8192


@dataclass(frozen=True)
class PatternText:
    """What a pattern says, without compiling it: cheap enough for 100,000 records."""

    literal: str  # the literal parts joined by single spaces, for fuzzy scoring
    literal_chars: int  # non-space literal characters: how specific the pattern is
    tokens: tuple[str, ...]  # whole words of the literal text, lower case, for the candidate index


@dataclass(frozen=True)
class CompiledPattern:
    regex: re.Pattern[str]
    literal: str
    literal_chars: int
    tokens: tuple[str, ...]


def split_pattern(pattern: str) -> list[str | None]:
    """The pattern as literal strings and None for each placeholder."""
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


def _literal_regex(text: str) -> str:
    out: list[str] = []
    for chunk in re.split(r"(\s+)", text):
        if not chunk:
            continue
        if chunk.isspace():
            out.append(r"\s+")
            continue
        out.append("".join(_QUOTE_CLASS if ch in QUOTES else re.escape(ch) for ch in chunk))
    return "".join(out)


def _bounded_words(parts: list[str | None]) -> list[str]:
    """Words that stand whole in the literal text: not glued to a placeholder."""
    words: list[str] = []
    for i, part in enumerate(parts):
        if part is None:
            continue
        glued_left = i > 0 and parts[i - 1] is None
        glued_right = i + 1 < len(parts) and parts[i + 1] is None
        found = list(_WORD.finditer(part))
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
        literal_chars=len(literal.replace(" ", "")),
        tokens=tuple(dict.fromkeys(w for w in _bounded_words(parts) if len(w) >= 3)),
    )


def pattern_text(pattern: str) -> PatternText:
    return _text_of(split_pattern(pattern))


@lru_cache(maxsize=4096)
def compile_pattern(pattern: str) -> CompiledPattern:
    parts = split_pattern(pattern)
    pieces = ["(.*?)" if p is None else _literal_regex(p) for p in parts]
    if parts and parts[-1] is None:
        # A trailing placeholder takes the rest of its line, so the matched span shows the value.
        pieces[-1] = "([^\\n]*)"
    text = _text_of(parts)
    return CompiledPattern(re.compile("".join(pieces), re.S), text.literal, text.literal_chars, text.tokens)


def message_words(message: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(message[:MAX_SEARCH_CHARS])}


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


def content_words(text: str) -> list[str]:
    """The words that carry meaning, in order: lower case, no numbers, no stop words."""
    return [
        w for w in (m.lower() for m in _WORD.findall(text)) if len(w) > 1 and not w.isdigit() and w not in STOPWORDS
    ]
