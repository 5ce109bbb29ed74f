"""Module-level regexes compiled at their first use: a run uses a few of the package's hundred.

Compiling is most of a regex's cost (Python's parser and compiler, 0.05 to 0.5 ms each), and
every run pays for every `re.compile` at module level, the Python extractors' for a Rust panic
included. `lazy_regex` stands in for the compiled pattern: the first call of one of its methods
compiles it and puts the compiled pattern's bound methods in its place, so that later calls cost
what calls on a compiled pattern do.
"""

from __future__ import annotations

import re

_METHODS = ("search", "match", "fullmatch", "sub", "subn", "finditer", "findall", "split")


class _LazyRegex:
    def __init__(self, pattern: str, flags: int) -> None:
        self.pattern, self.flags = pattern, flags

    def __getattr__(self, name: str) -> object:  # only for what the instance does not hold yet
        compiled = re.compile(self.pattern, self.flags)
        for method in _METHODS:
            setattr(self, method, getattr(compiled, method))
        return getattr(compiled, name)

    def __repr__(self) -> str:
        return f"lazy_regex({self.pattern!r})"


def lazy_regex(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """`re.compile(pattern, flags)`, done when the pattern is first used."""
    return _LazyRegex(pattern, flags)  # type: ignore[return-value]


# One alternative of a pattern: the substring it cannot match without, and the regex for the rest (None: the
# substring says it all).
Alternative = tuple[str, "re.Pattern[str] | None"]


def search_alternatives(text: str, alternatives: tuple[Alternative, ...]) -> bool:
    """`a|b|c` found in the text, asked alternative by alternative: each regex is compiled only when its
    substring is there, and a small regex compiles several times faster than the whole alternation."""
    return any(part in text and (regex is None or regex.search(text)) for part, regex in alternatives)
