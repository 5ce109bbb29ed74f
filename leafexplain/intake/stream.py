"""Find the stretches of a large input that may hold errors, at C speed and in bounded memory.

A small input is taken whole. A large one (a long CI log) is scanned with `bytes.find` for the
words every error we extract contains; only windows of lines around those words are decoded and
handed to the extractors, so most of a log is skipped without a Python-level loop over its lines.

Memory stays bounded whatever the input: a line longer than MAX_LINE_BYTES keeps only its first
MAX_LINE_BYTES as a terminal would show it (the last `\r`-redrawn segment), a window holds at most
WINDOW_BEFORE_BYTES before the line of its hit and WINDOW_AFTER_BYTES after it, and what no window
can reach any more is dropped. Each byte is looked at a fixed number of times: time is linear.
"""

from __future__ import annotations

import codecs
import itertools
from collections.abc import Iterable, Iterator

from leafexplain.named import NamedTuple
from leafexplain.text import decode, normalize

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: the everyday path does without it
if TYPE_CHECKING:
    from typing import BinaryIO

# Every error we explain has one of these words near it: Rust's "panicked at", Python's
# "Traceback", an exception or warning class (pytest's `E   ...` lines and `FAILED ... - ...`
# summaries name the class too); rustc's `error[E0382]: ` and `error: ` headers (lower case: `Error`
# does not find them); the fatal ends of extract/fatal.py, which name none of them (a
# C++ terminate, faulthandler's dump, Rust's runtime aborting, the shell's line for the signal that
# ended a run: the line a long training log ends with when the kernel killed it); and human-panic's
# report, which names no error at all (VS Code's popup, anyhow's chains and absl's status lines nearly
# always carry `Error` somewhere near, and are pasted, small inputs, anyway). Each word costs a pass
# over the input (~30 ms per 100 MB here, less for a longer word), so the list is kept short, each word
# as long as it can be: a bare `Exception: ...` line with no traceback around it, zsh's lowercase
# signal words and a `Bus error` are only found in inputs under 1 MB.
KEYWORDS = (b"panicked", b"raceback (most recent call last)", b"Error", b"Warning: ")
KEYWORDS += (b"terminate called", b"Fatal Python error", b"fatal runtime error", b"Segmentation fault")
KEYWORDS += (b"Killed", b"Aborted", b"had a problem and crashed", b"error[E", b"error: ")
# The first line of a panic, a traceback or a compile error with its code.
OPENINGS = (b"panicked", b"raceback (most recent call last)", b"error[E")
WHOLE_INPUT_BYTES = 1 << 20  # below this the input is one window: exact, and cheap anyway
LINES_BEFORE = 40  # a pytest section header and frames, cargo's `---- test stdout ----`
LINES_AFTER = 200  # a traceback's frames (about 60 of them) or a long multi-line message
MAX_WINDOW_BYTES = 4 << 20  # a log where every line says Error still stays bounded
CHUNK_BYTES = 256 << 10  # smaller pieces stay in the CPU cache across the keyword passes
# A longer line (a 50 MB JSON blob, binary data, a progress bar redrawn for hours) is cut: the
# part that names an error is at its start. As large as a small input, so that one is never cut.
MAX_LINE_BYTES = WHOLE_INPUT_BYTES
WINDOW_BEFORE_BYTES = 1 << 20  # however long the lines, a window reaches back at most this far ...
WINDOW_AFTER_BYTES = 2 << 20  # ... and on at most this far past the line of its hit


class _LongLine:
    """What is kept of a line longer than the limit while it streams past: the first `limit` bytes
    of its last non-empty `\r` segment (what `text.clean_line` keeps of a redrawn line)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.current = b""  # the segment being read
        self.previous = b""  # the last finished non-empty segment

    def add(self, part: bytes) -> None:
        last_cr = part.rfind(b"\r")
        if last_cr < 0:
            if len(self.current) < self.limit:
                self.current += part[: self.limit - len(self.current)]
            return
        finished = part[:last_cr].rstrip(b"\r")
        if finished:
            cr = finished.rfind(b"\r")
            segment = finished[cr + 1 : cr + 1 + self.limit] if cr >= 0 else self.current + finished[: self.limit]
            self.previous = segment[: self.limit]
        elif self.current:
            self.previous = self.current
        self.current = part[last_cr + 1 : last_cr + 1 + self.limit]

    def kept(self) -> bytes:
        return self.current or self.previous


class Window(NamedTuple):
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

    def __init__(self, whole_input_bytes: int = WHOLE_INPUT_BYTES, max_line_bytes: int = MAX_LINE_BYTES) -> None:
        self.whole_input_bytes = whole_input_bytes
        self.max_line_bytes = max_line_bytes
        self.long_line: _LongLine | None = None  # a line over the limit, still arriving
        self.buf = b""
        self.base_line = 1  # line number of buf[0]
        self.scanned = 0  # hits before this offset were handled
        self.window: tuple[int, int] | None = None  # pending window [start, end) in buf
        self.small = True  # still below the whole-input size
        self.received = 0  # bytes fed: what decides `small`, whatever cutting long lines saved
        self.counted = (0, 1)  # (offset in buf, its line number): windows come out in order
        self.finder = _KeywordFinder()

    def feed(self, data: bytes) -> list[Window]:
        self.received += len(data)
        if self.long_line is not None:
            end = data.find(b"\n")
            if end < 0:
                self.long_line.add(data)
                self.small = self.small and self.received < self.whole_input_bytes
                return []
            self.long_line.add(data[:end])
            self.buf += self.long_line.kept()
            self.long_line = None
            data = data[end:]
        line_start = self.buf.rfind(b"\n") + 1
        self.buf += data
        self._cut_long_lines(line_start)
        if self.small and self.received < self.whole_input_bytes:
            return []
        self.small = False
        return self._scan(final=False)

    def _cut_long_lines(self, pos: int) -> None:
        """Cut the lines from `pos` (a line start; nothing before it was scanned) that are over the
        limit; a last one still arriving streams past in `long_line`. Steps of up to a line's limit
        at C speed: a log of short lines costs a few `rfind` calls per chunk."""
        buf, limit = self.buf, self.max_line_bytes
        while len(buf) - pos > limit:
            newline = buf.rfind(b"\n", pos, pos + limit + 1)
            if newline >= 0:
                pos = newline + 1
                continue
            long_line = _LongLine(limit)
            end = buf.find(b"\n", pos + limit)
            if end < 0:
                long_line.add(buf[pos:])
                self.long_line = long_line
                buf = buf[:pos]
                break
            long_line.add(buf[pos:end])
            kept = long_line.kept()
            buf = buf[:pos] + kept + buf[end:]
            pos += len(kept) + 1
        self.buf = buf

    def close(self) -> list[Window]:
        if self.long_line is not None:
            self.buf += self.long_line.kept()
            self.long_line = None
        if self.small:
            text = normalize(decode(self.buf))
            self.buf = b""
            return [Window(1, text, whole=True)] if text.strip() else []
        if not self.buf.endswith(b"\n"):
            self.buf += b"\n"
        return self._scan(final=True)

    def pending(self) -> Window | None:
        """What the scanner holds now, whole lines only, as one window to read ahead of the windows it will hand
        out (`run`'s streamed formats, when the command falls quiet: an error may be complete before the lines
        after it arrive). It holds the small input whole, and at most a few windows' worth of a large one."""
        end = self.buf.rfind(b"\n") + 1
        text = normalize(decode(self.buf[:end])).rstrip("\n") if end else ""
        return Window(self.base_line, text, whole=self.small) if text.strip() else None

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
        # A hit from here on has fewer than LINES_AFTER lines after it yet (and, nearer the end than
        # WINDOW_AFTER_BYTES, no byte bound to stop at): its window waits for more input.
        ready = limit if final else _back_lines(self.buf, limit, LINES_AFTER, 0)
        while True:
            hit = self.finder.next_hit(self.buf, self.scanned, limit)
            if hit < 0:
                self.scanned = max(self.scanned, limit - 16)  # a keyword may straddle a feed
                break
            if not final and hit >= ready and limit - hit <= WINDOW_AFTER_BYTES:
                break  # wait for more lines after this hit
            if self.window and hit < self.window[1] and self._jump(hit, min(self.window[1], ready), final):
                continue
            floor = self.window[0] if self.window else 0
            start, end = self._reach(hit, final, need_start=not (self.window and hit < self.window[1]))
            if end is None:
                break  # wait for more lines after this hit
            if self.window and start <= self.window[1] and end - floor <= MAX_WINDOW_BYTES:
                self.window = (self.window[0], max(self.window[1], end))
            elif self.window and start <= self.window[1]:
                # Full: the window ends before the last error that opens in it, which opens the next one, so that
                # no traceback or panic is cut in two where one window ends and the next begins.
                cut = self._last_opening(*self.window)
                out.append(self._emit(self.window[0], cut))
                self.window = (cut, max(self.window[1], end))
            else:
                if self.window:
                    out.append(self._emit(*self.window))
                self.window = (max(start, self.window[1]) if self.window else start, end)
            self.scanned = _forward_lines(self.buf, hit, 0) or len(self.buf)
        if self.window and (final or self._reach_floor() > self.window[1]):
            # No later hit can reach back into it: out it goes, rather than holding the log
            # between here and the next hit in memory.
            out.append(self._emit(*self.window))
            self.window = None
        self._discard()
        return out

    def _last_opening(self, start: int, end: int) -> int:
        """The start of the line where the last traceback or panic opens in buf[start:end], past `start`; `end`
        when there is none."""
        opening = max(self.buf.rfind(word, start, end) for word in OPENINGS)
        line = self.buf.rfind(b"\n", start, opening) + 1 if opening > start else 0
        return line if line > start else end

    def _jump(self, hit: int, stop: int, final: bool) -> bool:
        """Dense hits: every hit before the open window's end only carries the window on, to what the last of
        them reaches. That last one is found at C speed and the window taken on from it in one step, rather than
        from each hit in turn: a log where every line is an error costs a step per LINES_AFTER lines, not per
        line. `stop`: no later than where hits have their lines after them. False (nothing done) where the
        window would grow past its bound."""
        last = max(self.buf.rfind(keyword, hit, stop) for keyword in KEYWORDS)
        if last <= hit:
            return False
        _, end = self._reach(last, final, need_start=False)
        if self.window is None or end is None or end - self.window[0] > MAX_WINDOW_BYTES:
            return False
        self.window = (self.window[0], max(self.window[1], end))
        self.scanned = _forward_lines(self.buf, last, 0) or len(self.buf)
        return True

    def _reach_floor(self) -> int:
        """How far back a window around any hit not yet scanned can start (see `_reach`)."""
        scanned_line = self.buf.rfind(b"\n", 0, self.scanned) + 1
        return max(_back_lines(self.buf, self.scanned, LINES_BEFORE, 0), scanned_line - WINDOW_BEFORE_BYTES)

    def _reach(self, hit: int, final: bool, need_start: bool = True) -> tuple[int, int | None]:
        """The window around a hit: whole lines, bounded in count and in bytes; end None: not read yet. Without
        `need_start` (a hit inside the open window, which it only carries on), the start is the hit's line."""
        buf = self.buf
        hit_line = buf.rfind(b"\n", 0, hit) + 1
        start = _back_lines(buf, hit, LINES_BEFORE, 0) if need_start else hit_line
        if hit_line - start > WINDOW_BEFORE_BYTES:
            start = buf.find(b"\n", hit_line - WINDOW_BEFORE_BYTES, hit_line) + 1 or hit_line
        end = _forward_lines(buf, hit, LINES_AFTER)
        hit_end = buf.find(b"\n", hit) + 1 or len(buf)
        if end is None or end - hit_end > WINDOW_AFTER_BYTES:
            cut = buf.find(b"\n", hit_end + WINDOW_AFTER_BYTES)
            if cut >= 0:
                end = cut + 1 if end is None else min(end, cut + 1)
        if end is None and final:
            end = len(buf)
        return start, end

    def _discard(self) -> None:
        """Drop what no window can need any more, keeping lines that a later window may reach back to."""
        keep_from = _back_lines(self.buf, self.scanned, LINES_BEFORE + 1, 0)
        if self.scanned - keep_from > WINDOW_BEFORE_BYTES + self.max_line_bytes:
            keep_from = self.buf.rfind(b"\n", 0, self.scanned - WINDOW_BEFORE_BYTES - self.max_line_bytes) + 1
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


def windows(
    chunks: Iterable[bytes], whole_input_bytes: int = WHOLE_INPUT_BYTES, max_line_bytes: int = MAX_LINE_BYTES
) -> Iterator[Window]:
    scanner = WindowScanner(whole_input_bytes, max_line_bytes)
    for chunk in as_utf8(chunks):
        yield from scanner.feed(chunk)
    yield from scanner.close()


# Byte-order marks, longest first (UTF-32LE's starts with UTF-16LE's).
_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
    (codecs.BOM_UTF8, "utf-8-sig"),
)


def as_utf8(chunks: Iterable[bytes]) -> Iterator[bytes]:
    """The input as UTF-8 bytes: text that starts with a byte-order mark (PowerShell's `>` writes UTF-16LE with
    one) is decoded as the mark says, piece by piece; anything else passes through untouched."""
    pieces = iter(chunks)
    head = b""
    for piece in pieces:
        head += piece
        if len(head) >= 4:
            break
    encoding = next((name for bom, name in _BOMS if head.startswith(bom)), None)
    if encoding is None:
        if head:
            yield head
        yield from pieces
        return
    decoder = codecs.getincrementaldecoder(encoding)(errors="replace")
    for piece in itertools.chain([head], pieces):
        if text := decoder.decode(piece):
            yield text.encode("utf-8")
    if tail := decoder.decode(b"", final=True):
        yield tail.encode("utf-8")


def read_chunks(stream: BinaryIO, size: int = CHUNK_BYTES) -> Iterator[bytes]:
    while chunk := stream.read(size):
        yield chunk
