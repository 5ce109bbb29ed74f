"""Text fitted to where it is shown: made safe, on one line, cut to whole sentences, wrapped or cropped to a width.

Every format takes record and input text through here. Widths are counted in terminal columns
(`cells`: a wide East Asian character takes two, a combining mark none). Prose wraps between
words; code is never wrapped: a line too long loses its trailing comment, then is cut between
tokens with a visible `…`.
"""

from __future__ import annotations

import unicodedata

from leafexplain.regex import lazy_regex
from leafexplain.text import clean_line

MAX_TEXT_CHARS = 4000  # a giant field from a foreign record is cut, with a note
CUT = "…"
TRAILING_COMMENT = lazy_regex(r"\s+(?://|#)\s.*$")  # a `// note` or `# note` after the code
_SENTENCE_END = lazy_regex(r"(?<=[.!?])\s+(?=[A-Z(`'\"])")
_TOKEN_END = lazy_regex(r"[\s.,;:()\[\]{}<>=+*/|&!?-]")
_PATH_BREAK = lazy_regex(r"[/\\_.:-]")
_WORD = lazy_regex(r"\S+")


def safe(text: str | None, limit: int = MAX_TEXT_CHARS, *, keep_tabs: bool = False) -> str:
    """Text fit for a terminal: no escape sequences or control characters, bounded length.

    An error message keeps its tabs so that matched-span offsets still point at the right text.
    """
    if not text:
        return ""
    cut = len(text) > limit
    lines = (clean_line(line) for line in text[:limit].split("\n"))
    body = "\n".join(lines if keep_tabs else (line.replace("\t", "    ") for line in lines))
    return body + f"\n[… {len(text) - limit} more characters not shown]" if cut else body


def one_line(text: str, limit: int = 300) -> str:
    """A piece of record text on one line, fit for a terminal: no escapes or controls, at most `limit` long."""
    lines = (clean_line(line) for line in text[: limit * 2].split("\n"))
    return " ".join(" ".join(lines).split())[:limit]


def shorten(text: str, limit: int) -> str:
    """`text` on one line, at most `limit` characters, cut after a whole word with `…`."""
    line = " ".join(text.split())
    if len(line) <= limit:
        return line
    cut = line[: limit - 1]
    space = cut.rfind(" ")
    return (cut[:space] if space > limit // 2 else cut).rstrip(" ,.;:…") + CUT


def split_sentences(text: str) -> list[str]:
    """`text` cut after each `.`, `!` or `?` that a new sentence follows (`e.g. this` stays whole)."""
    return _SENTENCE_END.split(text)


def first_sentences(text: str, *, count: int | None = None, limit: int | None = None) -> str:
    """The first whole sentences of `text`, on one line: `count` of them, or as many as fit in `limit`
    characters (at least the first one); enough to say what an error means without the whole story."""
    flat = one_line(text, 4 * limit if limit is not None else len(text))
    taken = ""
    for number, sentence in enumerate(split_sentences(flat)):
        longer = f"{taken} {sentence}".strip()
        if (count is not None and number >= count) or (limit is not None and taken and len(longer) > limit):
            break
        taken = longer
    return taken


def cells(text: str) -> int:
    """Columns `text` takes on a terminal: wide East Asian characters take two, combining marks none."""
    if text.isascii():
        return len(text)
    return sum(0 if unicodedata.combining(ch) else 2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def chars_within(text: str, start: int, room: int) -> int:
    """How many characters of `text` from `start` fit in `room` columns (wide characters take two); at least one."""
    if text.isascii():
        return max(room, 1)
    used = count = 0
    for ch in text[start:]:
        used += cells(ch)
        if used > room:
            break
        count += 1
    return max(count, 1)


def wrap_ranges(text: str, room: int) -> list[tuple[int, int]]:
    """Where to break `text` (one paragraph) into rows of at most `room` columns, between words: (start, end)
    of each row in `text`. A word longer than a row is split, as it could not be shown otherwise."""
    room = max(room, 10)
    out: list[tuple[int, int]] = []
    start = end = used = 0
    for word in _WORD.finditer(text):
        size = cells(word.group())
        gap = cells(text[end : word.start()]) if used else 0  # the spaces as written: a run of them is wide
        if used and used + gap + size > room:
            out.append((start, end))
            start, used = word.start(), 0
            gap = 0
        if not used:
            start = word.start()
        while size > room:  # a path in prose longer than the row: broken after a `/`, `-` or `.` if it can be
            fits = chars_within(text, start, room)
            breaks = [m.end() for m in _PATH_BREAK.finditer(text, start + 1, start + fits)]
            cut = breaks[-1] if breaks and breaks[-1] - start > fits // 2 else start + fits
            out.append((start, cut))
            start, size = cut, cells(text[cut : word.end()])
        used += gap + size
        end = word.end()
    if used or not out:
        out.append((start, end))
    return out


def prose(text: str, room: int, max_rows: int | None = None) -> list[str]:
    """`text` wrapped to `room` columns; past `max_rows` the last row ends with `…`."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        lines += [paragraph[a:b] for a, b in wrap_ranges(paragraph, room)]
    if max_rows is not None and len(lines) > max_rows:
        lines = lines[:max_rows]
        last = lines[-1]
        while last and cells(last) + 2 > room:
            last = last[: last.rfind(" ")] if " " in last else last[:-1]
        lines[-1] = last.rstrip(" ,.;:") + " " + CUT
    return lines


def indented_prose(text: str, width: int, indent: str) -> list[str]:
    """`text` wrapped to `width` by textwrap, each row indented, a blank line kept; a long word or path is
    never broken (the long view's plain text: a path can be copied whole)."""
    import textwrap  # only the long view wraps this way

    out: list[str] = []
    for paragraph in text.split("\n"):
        if not paragraph.strip():
            out.append("")
            continue
        out.extend(
            textwrap.wrap(
                paragraph,
                width=max(width - len(indent), 20),
                initial_indent=indent,
                subsequent_indent=indent,
                break_on_hyphens=False,
                break_long_words=False,
            )
            or [indent]
        )
    return out


def code_only(line: str) -> str:
    """A code line without its trailing comment."""
    return TRAILING_COMMENT.sub("", line).rstrip()


def crop_code(text: str, room: int) -> str:
    """A code line in `room` columns, never cut inside a token: without its trailing comment if that is
    enough, else cut at the last token boundary, with `…` to show that it goes on."""
    if cells(text) <= room:
        return text
    uncommented = TRAILING_COMMENT.sub("", text)
    if uncommented != text and cells(uncommented) + 2 <= room:
        return uncommented + " " + CUT
    limit = room - 2
    keep = 0
    for boundary in _TOKEN_END.finditer(text):
        if cells(text[: boundary.start() + 1]) > limit:
            break
        keep = boundary.start() + (0 if boundary.group().isspace() else 1)
    return text[:keep].rstrip() + " " + CUT
