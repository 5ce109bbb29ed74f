"""Find the stretches of a large input that may hold errors, at C speed and in bounded memory.

A small input is taken whole. A large one (a long CI log) is scanned with `bytes.find` for the
words every error we extract contains; only windows of lines around those words are decoded and
handed to the extractors, so most of a log is skipped without a Python-level loop over its lines.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import BinaryIO

from leafexplain.sources import decode, normalize

# Every error we explain has one of these words near it: Rust's "panicked at", Python's
# "Traceback", an exception or warning class (pytest's `E   ...` lines and `FAILED ... - ...`
# summaries name the class too). Each word costs a pass over the input at memchr speed
# (~70 ms per 100 MB here), so the list is kept to these five.
KEYWORDS = (b"panicked", b"Traceback", b"Error", b"Exception", b"Warning")
WHOLE_INPUT_BYTES = 1 << 20  # below this the input is one window: exact, and cheap anyway
LINES_BEFORE = 40  # a pytest section header and frames, cargo's `---- test stdout ----`
LINES_AFTER = 200  # a traceback's frames (about 60 of them) or a long multi-line message
MAX_WINDOW_BYTES = 4 << 20  # a log where every line says Error still stays bounded
CHUNK_BYTES = 4 << 20


@dataclass(frozen=True)
class Window:
    first_line: int  # 1-based line of the input where `text` starts
    text: str  # normalised (escapes stripped, line ends unified)
    whole: bool = False  # the entire input: a bare pasted message may be taken from it


def _back_lines(buf: bytes, pos: int, count: int, floor: int) -> int:
    """Start of the line `count` lines above the one holding `pos` (not below `floor`)."""
    start = buf.rfind(b"\n", floor, pos) + 1 if pos > floor else floor
    for _ in range(count):
        if start <= floor:
            return floor
        start = buf.rfind(b"\n", floor, start - 1) + 1
    return max(start, floor)


def _forward_lines(buf: bytes, pos: int, count: int) -> int | None:
    """End (after the newline) of the line `count` lines below `pos`; None if the buffer ends first."""
    end = pos
    for _ in range(count + 1):
        nl = buf.find(b"\n", end)
        if nl < 0:
            return None
        end = nl + 1
    return end


class _KeywordFinder:
    """The next keyword at or after a position; each keyword's last answer is kept, so a log
    dense with one keyword does not make the search for the others start over each time."""

    def __init__(self) -> None:
        self.found: dict[bytes, tuple[int, int]] = {}  # keyword -> (position or -1, searched up to)

    def next_hit(self, buf: bytes, start: int, stop: int) -> int:
        best = -1
        for keyword in KEYWORDS:
            pos, searched = self.found.get(keyword, (-1, start))
            if pos < start and not (pos == -1 and searched >= stop):
                pos = buf.find(keyword, max(start, searched) if pos == -1 else start, stop)
                self.found[keyword] = (pos, stop)
            if pos >= start and (best < 0 or pos < best):
                best = pos
        return best

    def shift(self, offset: int) -> None:
        self.found = {k: (p - offset if p >= 0 else -1, max(s - offset, 0)) for k, (p, s) in self.found.items()}


class WindowScanner:
    """Feed bytes as they come; windows come out in input order, non-overlapping."""

    def __init__(self, whole_input_bytes: int = WHOLE_INPUT_BYTES) -> None:
        self.whole_input_bytes = whole_input_bytes
        self.buf = b""
        self.base_line = 1  # line number of buf[0]
        self.scanned = 0  # hits before this offset were handled
        self.window: tuple[int, int] | None = None  # pending window [start, end) in buf
        self.small = True  # still below the whole-input size
        self.counted = (0, 1)  # (offset in buf, its line number): windows come out in order
        self.finder = _KeywordFinder()

    def feed(self, data: bytes) -> list[Window]:
        self.buf += data
        if self.small and len(self.buf) < self.whole_input_bytes:
            return []
        self.small = False
        return self._scan(final=False)

    def close(self) -> list[Window]:
        if self.small:
            text = normalize(decode(self.buf))
            self.buf = b""
            return [Window(1, text, whole=True)] if text.strip() else []
        if not self.buf.endswith(b"\n"):
            self.buf += b"\n"
        return self._scan(final=True)

    def _emit(self, start: int, end: int) -> Window:
        offset, line = self.counted
        if start < offset:
            offset, line = 0, self.base_line
        first = line + self.buf.count(b"\n", offset, start)
        self.counted = (start, first)
        return Window(first, normalize(decode(self.buf[start:end])).rstrip("\n"))

    def _scan(self, *, final: bool) -> list[Window]:
        out: list[Window] = []
        limit = self.buf.rfind(b"\n") + 1  # only whole lines are scanned
        while True:
            hit = self.finder.next_hit(self.buf, self.scanned, limit)
            if hit < 0:
                self.scanned = max(self.scanned, limit - 16)  # a keyword may straddle a feed
                break
            floor = self.window[0] if self.window else 0
            start = _back_lines(self.buf, hit, LINES_BEFORE, 0)
            end = _forward_lines(self.buf, hit, LINES_AFTER)
            if end is None:
                if not final:
                    break  # wait for more lines after this hit
                end = len(self.buf)
            if self.window and start <= self.window[1] and end - floor <= MAX_WINDOW_BYTES:
                self.window = (self.window[0], max(self.window[1], end))
            else:
                if self.window:
                    out.append(self._emit(*self.window))
                self.window = (max(start, self.window[1]) if self.window else start, end)
            self.scanned = _forward_lines(self.buf, hit, 0) or len(self.buf)
        if final and self.window:
            out.append(self._emit(*self.window))
            self.window = None
        self._discard()
        return out

    def _discard(self) -> None:
        """Drop what no window can need any more, keeping lines that a later window may reach back to."""
        keep_from = _back_lines(self.buf, self.scanned, LINES_BEFORE + 1, 0)
        if self.window:
            keep_from = min(keep_from, self.window[0])
        if keep_from > 0:
            self.base_line += self.buf.count(b"\n", 0, keep_from)
            offset, line = self.counted
            self.counted = (offset - keep_from, line) if offset >= keep_from else (0, self.base_line)
            self.buf = self.buf[keep_from:]
            self.scanned -= keep_from
            self.finder.shift(keep_from)
            if self.window:
                self.window = (self.window[0] - keep_from, self.window[1] - keep_from)


def windows(chunks: Iterable[bytes], whole_input_bytes: int = WHOLE_INPUT_BYTES) -> Iterator[Window]:
    scanner = WindowScanner(whole_input_bytes)
    for chunk in chunks:
        yield from scanner.feed(chunk)
    yield from scanner.close()


def read_chunks(stream: BinaryIO, size: int = CHUNK_BYTES) -> Iterator[bytes]:
    while chunk := stream.read(size):
        yield chunk
