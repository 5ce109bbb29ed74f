"""leafexplain.regex.lazy_regex answers as the compiled pattern does, compiled at its first use."""

from __future__ import annotations

import re

from leafexplain.regex import lazy_regex


def test_a_lazy_regex_answers_as_the_compiled_one() -> None:
    lazy, compiled = lazy_regex(r"(?P<word>[a-z]+)(\d)", re.I), re.compile(r"(?P<word>[a-z]+)(\d)", re.I)
    assert "search" not in vars(lazy)  # nothing compiled yet
    text = "ab1 CD2 ef"
    assert lazy.search(text).span() == compiled.search(text).span()  # type: ignore[union-attr]
    assert "search" in vars(lazy)  # compiled once, its methods in place
    assert lazy.sub("-", text) == compiled.sub("-", text) == "- - ef"
    assert [m.group("word") for m in lazy.finditer(text)] == ["ab", "CD"]
    assert lazy.findall(text) == compiled.findall(text) and lazy.split(text) == compiled.split(text)
    assert lazy.match(text) is not None and lazy.fullmatch(text) is None
    assert (lazy.pattern, lazy.groups, lazy.groupindex) == (compiled.pattern, 2, compiled.groupindex)
