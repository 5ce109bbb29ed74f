"""Text fit for a terminal: input cleaned before it is read, diagnostics escaped, links checked before shown."""

from __future__ import annotations

import re

from leafexplain.regex import lazy_regex

# ANSI/VT sequences: CSI, OSC (to BEL or ST), DCS/SOS/PM/APC strings, two-byte ESC sequences,
# and the 8-bit CSI. Text is read for its words, so every one of them is removed. A string
# sequence left open ends at the line's end: a stray `ESC ]` must not swallow the rest of a log.
_SEQUENCE_PATTERN = (
    r"\x1b\[[0-?]*[ -/]*[@-~]"
    r"|\x1b\][^\x07\x1b\x9c\n]*(?:\x07|\x1b\\|\x9c)?"
    r"|\x1b[PX^_][^\x1b\x9c\n]*(?:\x1b\\|\x9c)?"
    r"|\x1b[ -/]*[0-~]"
    r"|\x9b[0-?]*[ -/]*[@-~]"
    r"|\x1b"
)
_SEQUENCES = lazy_regex(_SEQUENCE_PATTERN)
_ESCAPES = lazy_regex(_SEQUENCE_PATTERN + r"|[\x80-\x9f]")  # and any other C1 control: for what is shown
# Other control characters (tabs and newlines stay); bidi overrides, isolates and marks are kept
# out of extraction and output as they only ever disguise text (reordering it on screen). A lone
# surrogate (from a record's JSON, or a file name) is not text and cannot even be written out.
_CONTROLS = lazy_regex(
    r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029\ud800-\udfff]"
)
# In the input, a control character left once the sequences are gone (C0 but tab and newline, DEL,
# C1) becomes U+FFFD, as invalid UTF-8 does, rather than vanishing: text with a NUL inside must never
# pass for the text without it (`/etc/sha\x00dow` is not a path to `/etc/shadow`). Bidi controls go.
_MARKED = lazy_regex(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")
_BIDI = lazy_regex(r"[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
MARK = "\ufffd"
_PLAIN_ASCII = bytes(range(0x20, 0x7F)) + b"\t\n"
# What `printable` shows escaped: every control character, C1 and bidi control, lone surrogate.
_UNPRINTABLE = lazy_regex(r"[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2028\u2029\u2066-\u2069\ud800-\udfff]")

# Only https links to GitHub-like hosts, with no credentials: a record is data from elsewhere,
# and a link in a terminal is clicked on trust. The path holds only the characters a URL may
# carry unencoded (no `@`, quotes, `<>`, spaces or controls), so a link cannot break out of the
# terminal's hyperlink sequence or of a Markdown `<...>` autolink.
URL_RE = lazy_regex(r"https://[A-Za-z0-9.-]+(?::\d{1,5})?/[A-Za-z0-9\-._~%!$&'()*+,;=:/?#\[\]]*\Z")
MAX_URL_CHARS = 2000


def _on_screen(line: str) -> str:
    """A progress bar redraws with \r: what stays on screen is the last segment."""
    segments = [s for s in line.split("\r") if s]
    return segments[-1] if segments else ""


# A segment that opens an error: a traceback, a panic, an exception's line. Redrawn over by a progress bar or
# another thread's output in a terminal, it is still in the log, and it is what the reader came for.
_ERROR_SEGMENT = lazy_regex(
    r"\s*(?:Traceback \(most recent call last\)|thread '[^']*' panicked|panicked at |"
    r"[A-Za-z_][\w.]{0,200}(?:Error|Exception|Warning|Exit|Interrupt)\b)"
)


def _segments_kept(line: str) -> str:
    """A line redrawn with \r in input: its last segment, as on screen, after any earlier segment that opens an
    error (each on a line of its own)."""
    segments = [s for s in line.split("\r") if s]
    if len(segments) < 2:
        return segments[-1] if segments else ""
    errors = [s for s in segments[:-1] if _ERROR_SEGMENT.match(s)]
    return "\n".join([*errors, segments[-1]])


_GONE: dict[str, dict[int, None]] = {}


def all_printable(text: str, allowed: str = "") -> bool:
    """Every character printable, or one of `allowed` (tab, newline ...): then no control character, C1, bidi
    control or lone surrogate is there (none is printable), and a regex that looks for them need not run, nor be
    compiled (a run that never meets one never compiles it). False only says that one may be there."""
    if text.isprintable():
        return True
    if not allowed:
        return False
    table = _GONE.get(allowed)
    if table is None:
        table = _GONE[allowed] = str.maketrans("", "", allowed)
    return text.translate(table).isprintable()


def clean_line(line: str) -> str:
    """One line as a person saw it: escapes gone, a carriage-return overwrite resolved."""
    line = _ESCAPES.sub("", line)
    if "\r" in line:
        line = _on_screen(line)
    return line if all_printable(line, "\t\n\r") else _CONTROLS.sub("", line)


def printable(text: str) -> str:
    """A one-line diagnostic fit for a terminal: a file name or a user's argument quoted in it has its
    control characters shown escaped (`\\x1b`, `\\n`), as `ls -b` does, so nothing in it acts on
    the terminal or passes for a line of its own."""
    return text if text.isprintable() else _UNPRINTABLE.sub(_escaped, text)


def _escaped(m: re.Match[str]) -> str:
    code = ord(m.group())
    return {9: "\\t", 10: "\\n", 13: "\\r"}.get(code) or (f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")


def normalize(text: str) -> str:
    """Input text to read: escape sequences stripped, line endings unified, a `\r` overwrite resolved,
    bidi controls removed, and any other control character marked (U+FFFD), never silently dropped.

    Whole-text substitutions run at C speed; only lines that still hold a `\r` are walked.
    """
    if "\r\n" in text:
        text = text.replace("\r\n", "\n")
    if "\x1b" in text or "\x9b" in text:  # a search for a character is much cheaper than the regex's own scan
        text = _SEQUENCES.sub("", text)
    if "\r" in text:
        text = "\n".join(_segments_kept(line) if "\r" in line else line for line in text.split("\n"))
    if text.isascii():  # known at once: no bidi control, C1 or surrogate; a C0 control found by a C-speed pass
        return _MARKED.sub(MARK, text) if text.encode("ascii").translate(None, _PLAIN_ASCII) else text
    if all_printable(text, "\t\n"):  # no `\r` is left by now
        return text
    return _MARKED.sub(MARK, _BIDI.sub("", text))


def decode(data: bytes) -> str:
    return data.decode("utf-8", errors="replace")


def safe_link(url: str | None) -> str | None:
    """The URL when it may be shown as a link (what record validation accepts), else None."""
    if not url or len(url) > MAX_URL_CHARS or not URL_RE.match(url):  # `\Z`: a trailing newline is not allowed
        return None
    return url


_SHELL_SAFE = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_@%+=:,./-")


def shell_word(text: str) -> str:
    """`text` as one word of a POSIX shell, quoted as shlex.quote quotes it, without importing shlex (0.3 ms a
    run): a word with nothing to quote (a record's id, most searches) is itself."""
    if text and _SHELL_SAFE.issuperset(text):
        return text
    return "'" + text.replace("'", "'\"'\"'") + "'"
