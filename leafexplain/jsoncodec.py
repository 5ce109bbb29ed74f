"""JSON read and written on the everyday path through CPython's C codec, without importing `json`.

Importing `json` compiles seven regexes (its decoder's and encoder's): 5.6M instructions, about 5% of an
explanation's start-up, paid by every run that reads a record (every explanation) or writes `--format json`.
The C scanner and string encoder that `json` itself uses do the work here; what they leave out is json's own
code path: a value this encoder does not write (a key that is not a string, a type of another kind) and every
input the scanner does not read cleanly (a byte-order mark, UTF-16 or -32, a syntax error, extra data) go to
`json`, so that the result and the error raised are json's own. Another Python without `_json` uses `json`.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing
if TYPE_CHECKING:
    from collections.abc import Callable

try:
    from _json import encode_basestring_ascii, make_scanner
except ImportError:  # another Python: json does it all
    encode_basestring_ascii = make_scanner = None


class _Decoding:
    """What the C scanner reads of a `json.JSONDecoder`: its defaults."""

    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = int
    parse_constant = {"-Infinity": float("-inf"), "Infinity": float("inf"), "NaN": float("nan")}.__getitem__


_scan: Callable[[str, int], tuple[object, int]] | None = make_scanner(_Decoding()) if make_scanner else None
_WHITESPACE = " \t\n\r"


def loads(data: bytes | str) -> object:
    """`json.loads(data)`: the same value, or json's own error."""
    if _scan is not None:
        try:
            # UTF-8 without a byte-order mark, as a record file is written; json reads the other encodings.
            plain = not isinstance(data, bytes) or (data[:1] != b"\xef" and b"\x00" not in data[:4])
            text = data.decode("utf-8") if isinstance(data, bytes) and plain else data
            if plain and isinstance(text, str) and text[:1] != "\ufeff":
                value, end = _scan(text, len(text) - len(text.lstrip(_WHITESPACE)))
                if not text[end:].strip(_WHITESPACE):
                    return value
        except (UnicodeDecodeError, StopIteration, ValueError, RecursionError, SystemError):
            pass  # json says what is wrong, in its words (the C scanner alone fails on `{` with a SystemError)
    import json

    return json.loads(data)


class _Unwritten(Exception):
    """A value the fast encoder leaves to json."""


def dumps_indented(value: object, indent: int = 2) -> str:
    """`json.dumps(value, ensure_ascii=True, indent=indent)`, the same text."""
    if encode_basestring_ascii is not None:
        out: list[str] = []
        try:
            _write(value, out, "\n", " " * indent)
            return "".join(out)
        except (_Unwritten, RecursionError):
            pass
    import json

    return json.dumps(value, ensure_ascii=True, indent=indent)


def _write(value: object, out: list[str], newline: str, step: str) -> None:
    if isinstance(value, str):
        out.append(encode_basestring_ascii(value))  # type: ignore[misc]
    elif value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif isinstance(value, int):
        out.append(int.__repr__(value))
    elif isinstance(value, float):
        out.append(_float(value))
    elif isinstance(value, dict):
        if not value:
            out.append("{}")
            return
        inner = newline + step
        out.append("{")
        for n, (key, item) in enumerate(value.items()):
            if not isinstance(key, str):
                raise _Unwritten  # json turns numbers, booleans and None into strings: its way, not repeated here
            out.append(("," if n else "") + inner + encode_basestring_ascii(key) + ": ")  # type: ignore[misc]
            _write(item, out, inner, step)
        out.append(newline + "}")
    elif isinstance(value, (list, tuple)):
        if not value:
            out.append("[]")
            return
        inner = newline + step
        out.append("[")
        for n, item in enumerate(value):
            out.append(("," if n else "") + inner)
            _write(item, out, inner, step)
        out.append(newline + "]")
    else:
        raise _Unwritten


def _float(value: float) -> str:
    if value != value:
        return "NaN"
    if value in (float("inf"), float("-inf")):
        return "Infinity" if value > 0 else "-Infinity"
    return float.__repr__(value)
