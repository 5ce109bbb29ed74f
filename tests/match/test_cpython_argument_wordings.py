"""CPython's argument-type TypeErrors (getargs.c's `%.200s() %.200s must be %.50s, not %.50s`) are not explained
as str concatenation: that record's Python 3.6 wording (`must be str, not %.100s`) matched inside them, and is
gone from its history. The messages are real python3.11 output."""

from __future__ import annotations

import pytest

from leafexplain.match import Matcher
from leafexplain.models import ErrorEvent, Frame

CONCAT_STR = "a50a58743957766f"  # can-only-concatenate-str-not-int-to-str


def top(matcher: Matcher, error_type: str, message: str) -> str | None:
    event = ErrorEvent(language="python", error_type=error_type, message=message, location=Frame("main.py", 1))
    result = matcher.match(event)
    return result.matches[0].record.id if result.matches else None


@pytest.mark.parametrize(
    "message",
    [
        "write() argument must be str, not int",
        "replace() argument 1 must be str, not int",
        "strptime() argument 1 must be str, not datetime.datetime",
    ],
)
def test_bad_argument_type_is_not_explained_as_str_concatenation(bundled_matcher: Matcher, message: str) -> None:
    assert top(bundled_matcher, "TypeError", message) != CONCAT_STR
