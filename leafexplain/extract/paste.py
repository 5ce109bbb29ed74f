"""Undo what pasting and logging do to error text before the extractors read it.

- A stack trace logged as one JSON string (`"exc":"Traceback (most recent call last):\\n  File ...`)
  is unfolded into its lines.
- HTML entities from a scraped page or an issue's HTML (`can&#39;t`) become their characters.
- rustc's error code as a page links it (`error[[E0308]](https://…)`) becomes the code as rustc printed it.
- Markdown emphasis or code marks around an exception line (`**ImportError: ...**`) are dropped, and
  an exception quoted as inline code inside a sentence (``it fails with `KeyError: 'x'` ``) gets a
  line of its own.

Each line out keeps the number of the input line it came from, so events still point at the
input as it was given.
"""

from __future__ import annotations

from leafexplain.regex import lazy_regex
from leafexplain.text import clean_line

# Where an escaped stack trace starts inside a logged string: a keyword, then an escaped newline.
_ESCAPED_START = lazy_regex(r"(?:T?raceback \(most recent call last\):|thread '[^'\\]*' panicked at )[^\"]*?\\n")
_JSON_STRING_REST = lazy_regex(r'(?:[^"\\]|\\.)*')
# A logged string cut before its start keyword (a notebook's JSON, a cargo diagnostic's "rendered" field): an
# error's own line after an escaped newline or the string's opening quote, its ANSI colours escaped too.
_ESCAPED_ANSI = r"(?:\\u001[bB]\[[\d;]*m|\\x1[bB]\[[\d;]*m|\\033\[[\d;]*m)*"
_ESCAPED_ERROR = lazy_regex(
    rf'(?:\\n|"){_ESCAPED_ANSI}(?:[A-Za-z_][\w.]*(?:Error|Exception|Warning){_ESCAPED_ANSI}:|error\[E\d{{4}}\]|File )'
)
_ENTITY = lazy_regex(r"&(?:#\d{1,6}|#x[0-9a-fA-F]{1,5}|quot|apos|lt|gt|amp);")
_INLINE_CODE = lazy_regex(r"`(?P<inner>[A-Za-z_][\w.]*(?:Error|Exception|Warning): [^`]+)`")
_EMPHASIS = lazy_regex(
    r"^(?P<indent>\s*)(?P<mark>\*\*|__|\*|`)(?P<inner>[A-Za-z_][\w.]*(?:Error|Exception|Warning|Exit|Interrupt)\b"
    r"[^`*]*?)(?P=mark)(?P<rest>.*)$"
)

_EXCEPTION_WORDS = ("Error", "Exception", "Warning", "Exit", "Interrupt")
# Emphasis opened before an exception line and closed on a later line (`_KeyError: 'x'` ... `KeyError_`):
# the opening mark goes; a single `_` only before a capital, as `_pickle.PicklingError` is a name.
_OPEN_EMPHASIS = lazy_regex(
    r"^(?P<indent>\s*)(?:\*\*|__|\*|_(?=[A-Z])|`(?!`))(?P<inner>[A-Za-z][\w.]*(?:Error|Exception|Warning|Exit|Interrupt)"
    r"(?::\s.*)?)(?P<rest>)$"
)


# rustc's code as a web page links it (the playground, docs.rs, an issue's rendered output copied as text):
# `error[[E0308]](https://doc.rust-lang.org/error_codes/E0308.html): mismatched types`.
_LINKED_CODE = lazy_regex(r"\[\[(?P<code>E\d{4})\]\]\([^()\s]*\)")


def _unescape_json(text: str) -> str:
    import json  # only for a trace logged as an escaped string

    try:
        return json.loads(f'"{text}"')
    except ValueError:
        return text.replace("\\n", "\n").replace('\\"', '"').replace("\\t", "\t")


def _whole_object(line: str) -> bool:
    """A line that is a whole JSON object: cargo's diagnostics are read as JSON (`rustc_json.py`), not unfolded."""
    body = line.strip()
    return body.startswith("{") and body.endswith("}")


def _string_start(line: str, at: int) -> int:
    """Where the JSON string holding position `at` opens: just after the last quote before it that is not
    escaped, or the line's start when the string began on a line before (a paste cut inside it)."""
    quote = line.rfind('"', 0, at)
    while quote > 0:
        slashes = len(line[:quote]) - len(line[:quote].rstrip("\\"))
        if slashes % 2 == 0:
            return quote + 1
        quote = line.rfind('"', 0, quote)
    return 0 if quote < 0 else 1


def _unfold_escaped(line: str) -> list[str] | None:
    """The lines of a stack trace logged as one escaped string, with what came before it on a line of its own."""
    start = _ESCAPED_START.search(line)
    if start is not None:
        begin = start.start()
    elif line.count("\\n") >= 2 and not _whole_object(line) and (error := _ESCAPED_ERROR.search(line)):
        begin = _string_start(line, error.start() + (line[error.start()] == '"'))
    else:
        return None
    rest = _JSON_STRING_REST.match(line, begin)
    end = rest.end() if rest else len(line)
    before, inner, after = line[:begin], line[begin:end], line[end:]
    # Colours escaped in the string are real escapes once unescaped: gone, as the input's own were.
    lines = [clean_line(text) if "\x1b" in text else text for text in _unescape_json(inner).split("\n")]
    return [before, *lines, after] if before.strip() else [*lines, after]


def _names_exception(line: str) -> bool:
    return any(word in line for word in _EXCEPTION_WORDS)


def _without_fences(line: str) -> str:
    """A code fence written on the error's own line (```` ```KeyError: 'x'``` ````): the fences go, and the
    backticks inside are the message's own (`` `Result::unwrap()` ``), never inline code."""
    body = line.lstrip()
    indent, mark = line[: len(line) - len(body)], body[:3]
    body = body.lstrip(mark[0])
    stripped = body.rstrip()
    if stripped.endswith(mark):
        body = stripped.rstrip(mark[0])
    return indent + body


def unfold(lines: list[str]) -> tuple[list[str], list[int]]:
    """The lines as the extractors should read them, and the input line each one came from."""
    out: list[str] = []
    origin: list[int] = []
    for number, line in enumerate(lines):
        if "&" in line and _ENTITY.search(line):
            import html  # only for a line with an HTML entity: html.entities is a large table

            line = html.unescape(line)
        unfolded = _unfold_escaped(line) if "\\n" in line else None
        if unfolded is not None:
            out.extend(unfolded)
            origin.extend([number] * len(unfolded))
            continue
        if "[[E" in line:
            line = _LINKED_CODE.sub(r"[\g<code>]", line)
        if ("```" in line or "~~~" in line) and line.lstrip().startswith(("```", "~~~")) and _names_exception(line):
            line = _without_fences(line)
        if (
            line.lstrip()[:1] in ("*", "_", "`")
            and _names_exception(line)  # what both regexes need: compiled only then
            and (m := _EMPHASIS.match(line) or _OPEN_EMPHASIS.match(line))
        ):
            line = m.group("indent") + m.group("inner") + m.group("rest")
        elif "`" in line and any(w in line for w in _EXCEPTION_WORDS[:3]) and (code := _INLINE_CODE.search(line)):
            parts = [line[: code.start()], code.group("inner"), line[code.end() :]]
            out.extend(parts)
            origin.extend([number] * len(parts))
            continue
        out.append(line)
        origin.append(number)
    return out, origin
