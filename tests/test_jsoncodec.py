"""jsoncodec reads and writes what json does: the same values, the same text, and json's own errors."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from leafexplain import jsoncodec

VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)


def outcome(function, value: object) -> tuple[str, object]:
    try:
        return "ok", repr(function(value))  # repr: NaN is not equal to itself
    except Exception as exc:  # the same class and words as json's
        return type(exc).__name__, str(exc)


@settings(max_examples=300, deadline=None)
@given(VALUES)
def test_it_writes_what_json_writes_and_reads_it_back(value: object) -> None:
    text = jsoncodec.dumps_indented(value)
    assert text == json.dumps(value, ensure_ascii=True, indent=2)
    assert outcome(jsoncodec.loads, text) == outcome(json.loads, text)
    assert outcome(jsoncodec.loads, text.encode()) == outcome(json.loads, text.encode())


@pytest.mark.parametrize(
    "data",
    [
        b'{"record": {"id": "x", "tags": ["python"]}, "datasetVersion": "1"}',
        b' \n [1, 2.5, "caf\xc3\xa9", null, true, false, {}] \r\n',
        b"\xef\xbb\xbf{}",  # a byte-order mark: json reads it
        "\ufeff{}",  # and refuses it in a str
        '{"a": 1}'.encode("utf-16"),
        b'{"a": "\xed\xa0\x80"}',  # a surrogate in UTF-8: json's surrogatepass
        b"\xff\xfe",
        b"",
        b"   ",
        b'{"a":',
        b"{",  # the C scanner alone returns no error for it (a SystemError): json says what is wrong
        "{",
        b'{"a" 1}',
        b"[1,]",
        b'{"a": 1} extra',
        b"[NaN, Infinity, -Infinity, 1e400]",
        b'{"a": 1, "a": 2}',
        b"[" * 100_000,  # nested too deeply
    ],
)
def test_every_input_is_read_as_json_reads_it(data: bytes | str) -> None:
    assert outcome(jsoncodec.loads, data) == outcome(json.loads, data)


@pytest.mark.parametrize("value", [{1: "a"}, {True: 1}, {"a": {1, 2}}, [object()], {"a": (1, [])}])
def test_a_value_it_does_not_write_is_json_s_to_write_or_refuse(value: object) -> None:
    assert outcome(jsoncodec.dumps_indented, value) == outcome(
        lambda v: json.dumps(v, ensure_ascii=True, indent=2), value
    )
