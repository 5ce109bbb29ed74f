"""Reading the record index (index_file.py's format): its header checked at open, its body block by block as used.

Each block's checksum is checked the first time it is read, so no byte is used unchecked, and a run
at 100,000 records reads a few dozen blocks of 4 KiB. Whatever bytes are read back, nothing is raised
but IndexUnusable or IndexDamaged; a Source given a way to heal replaces what it reads with a fresh
build, once, on damage found while reading (index.py warns and removes the file).
"""

from __future__ import annotations

import marshal
import os
import zlib
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Sequence

from leafexplain.records.index_file import (
    BLOCK,
    FIELD_SEP,
    INDEX_FORMAT,
    MAGIC,
    MAGIC_NAME,
    MAX_HEADER_BYTES,
    MAX_RECORD_BYTES,
    PLACE_FIELDS,
    PREFIX,
    ROW_FIELDS,
    SECTIONS,
    IndexDamaged,
    IndexUnusable,
)
from leafexplain.version import __version__

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: the everyday path does without it
if TYPE_CHECKING:
    from typing import Any, BinaryIO

_NUMBER = {name: n for n, (name, _) in enumerate(SECTIONS)}
WHOLE_BYTES = 1 << 18  # a section this small is read whole when first searched
BULK_AFTER = 256  # rows read one by one before a command is taken to read them all (list, search, show)
KEPT_BLOCKS = 64  # a read of more blocks than this checks them without keeping them


class Body:
    """The bytes after the header, fetched a block at a time and checked against the block's checksum once."""

    def __init__(self, fetch: Callable[[int, int], bytes], length: int, checksums: array[int]) -> None:
        self.fetch, self.length, self.checksums = fetch, length, checksums
        self.blocks: dict[int, bytes] = {}

    def block(self, number: int) -> bytes:
        got = self.blocks.get(number)
        if got is None:
            size = min(BLOCK, self.length - number * BLOCK)
            got = self.fetch(number * BLOCK, size)
            if len(got) != size or zlib.crc32(got) != self.checksums[number]:
                raise IndexDamaged("a block's checksum does not match")
            self.blocks[number] = got
        return got

    def read(self, start: int, end: int) -> bytes:
        if not 0 <= start <= end <= self.length:
            raise IndexDamaged("a place past its end")
        if start == end:
            return b""
        first, last = start // BLOCK, (end - 1) // BLOCK
        if last - first > KEPT_BLOCKS:  # a section read whole: checked block by block, not kept twice
            data = b"".join(self.blocks.get(n) or self._checked(n) for n in range(first, last + 1))
        else:
            data = self.block(first) if first == last else b"".join(map(self.block, range(first, last + 1)))
        return data[start - first * BLOCK : end - first * BLOCK]

    def _checked(self, number: int) -> bytes:
        got = self.block(number)
        del self.blocks[number]
        return got

    def verify(self) -> None:
        """Every block checked now (not as the run needs them)."""
        for number in range(len(self.checksums)):
            self.block(number)


class Source:
    """One index: its header, its sections, and its body. `heal`, when given, is called once on damage for a
    fresh Source (built from the record files) that this one then reads from instead."""

    def __init__(self, meta: dict[str, Any], body: Body, heal: Callable[[IndexDamaged], Source] | None = None) -> None:
        self.meta, self.body, self.heal = meta, body, heal
        self.handle: BinaryIO | None = None  # the file read from, if any: closed with the Source
        self.sections: list[tuple[int, int]] = meta["sections"]
        self.wholes: dict[int, array[Any]] = {}
        self.texts: dict[str, bytes] = {}

    def __del__(self) -> None:
        if self.handle is not None:
            self.handle.close()

    def guarded(self, read: Callable[[], Any]) -> Any:
        try:
            return read()
        except IndexDamaged as exc:
            if self.heal is None:
                raise
            heal, self.heal = self.heal, None
            fresh = heal(exc)
            self.meta, self.body, self.sections, self.wholes = fresh.meta, fresh.body, fresh.sections, {}
            self.texts = {}
            return read()

    def length(self, name: str) -> int:
        return self.sections[_NUMBER[name]][1] // array(SECTIONS[_NUMBER[name]][1]).itemsize

    def items(self, name: str, start: int, stop: int) -> array[Any]:
        """Items `start` to `stop` of a section, as an array."""
        number = _NUMBER[name]
        offset, _ = self.sections[number]
        if not 0 <= start <= stop <= self.length(name):
            raise IndexDamaged(f"a place past the end of its {name}")
        found = array(SECTIONS[number][1])
        size = found.itemsize
        found.frombytes(self.body.read(offset + start * size, offset + stop * size))
        return found

    def whole(self, name: str) -> array[Any]:
        """A section read whole, once (a small one; or any, for a command that reads every row)."""
        number = _NUMBER[name]
        if number not in self.wholes:
            self.wholes[number] = self.items(name, 0, self.length(name))
        return self.wholes[number]

    def text(self) -> bytes:
        """The rows' text, read whole, once."""
        if "text" not in self.texts:
            offset, length = self.sections[_NUMBER["rows"]]
            self.texts["text"] = self.body.read(offset, offset + length)
        return self.texts["text"]


class _Items(Sequence[int]):
    """A section's items, one read at a time (for bisect, which reads a few)."""

    def __init__(self, source: Source, name: str) -> None:
        self.source, self.name = source, name

    def __len__(self) -> int:
        return self.source.length(self.name)

    def __getitem__(self, index: int) -> int:  # type: ignore[override]
        return self.source.items(self.name, index, index + 1)[0]


class HashedIndex:
    """Word -> postings, looked up by the word's checksum in a sorted array (a collision only adds a
    candidate, which the pattern then rejects). A posting past the rows or wordings (an index that is not
    ours) is passed over here, for the few words a run looks up, rather than checked for all at load."""

    def __init__(self, source: Source, hashes: str, postings: str, limit: Callable[[int], bool]) -> None:
        self.source, self.hashes, self.postings, self.limit = source, hashes, postings, limit
        self.found: dict[str, list[int]] = {}

    def get(self, word: str, default: Sequence[int] = ()) -> Sequence[int]:
        found = self.found.get(word)
        if found is None:  # a log of 200 errors looks the same words up again and again
            found = self.found[word] = self.source.guarded(lambda: self._get(word))
        return found or default

    def _get(self, word: str) -> list[int]:
        key = zlib.crc32(word.encode())
        hashes: Sequence[int]
        if self.source.length(self.hashes) * 4 <= WHOLE_BYTES:
            hashes = self.source.whole(self.hashes)  # small (the bundled records'): read once, searched in C
        else:
            hashes = _Items(self.source, self.hashes)
        start = bisect_left(hashes, key)
        if start == len(hashes) or hashes[start] != key:
            return []
        stop = bisect_right(hashes, key, start)
        return [p for p in self.source.items(self.postings, start, stop) if self.limit(p)]


class Rows:
    """The index rows, decoded one at a time when asked for, and where each record lies."""

    def __init__(self, source: Source) -> None:
        self.source = source
        self.cache: dict[int, list[str]] = {}
        self.reads = 0  # past BULK_AFTER rows, the command reads them all: the sections are read whole
        self.last: tuple[int, list[str]] = (-1, [])

    def __len__(self) -> int:
        return int(self.source.meta["count"])

    def __getitem__(self, index: int) -> list[str]:
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError("row out of range")  # how a Sequence's iteration ends
        row = self.cache.get(index)
        if row is None:
            if self.last[0] == index:  # a scan reads each column of a row in turn
                return self.last[1]
            self.reads += 1
            row = self.source.guarded(lambda: self._row(index))
            if len(self.cache) < BULK_AFTER:  # a scan of 100,000 rows keeps only the one it is on
                self.cache[index] = row
            self.last = (index, row)
        return row

    def _row(self, index: int) -> list[str]:
        if self.reads > BULK_AFTER:
            ends: Sequence[int] = self.source.whole("row_ends")
            start, end = (0 if index == 0 else ends[index - 1]), ends[index]
        else:
            ends = self.source.items("row_ends", max(index - 1, 0), index + 1)
            start, end = (0, ends[0]) if index == 0 else (ends[0], ends[1])
        if not start <= end <= start + MAX_RECORD_BYTES:
            raise IndexDamaged(f"the text of row {index} is out of range")
        if self.reads > BULK_AFTER:
            text = self.source.text()
            if end > len(text):
                raise IndexDamaged(f"the text of row {index} is out of range")
            raw = text[start:end]
        else:
            raw = self.source.items("rows", start, end).tobytes()
        # Text that is not UTF-8 cannot pass for a record's: the record read from its file is compared with it.
        row = raw.decode("utf-8", "replace").split(FIELD_SEP)
        if len(row) != len(ROW_FIELDS):
            raise IndexDamaged(f"row {index} is malformed")
        return row

    def place(self, index: int, files: int) -> tuple[int, ...]:
        """(file, offset, length, item, line, crc) of the record in row `index`, of the `files` the header names.
        A place that cannot be (a file not named, a length past any record's) means the index is not ours."""
        return tuple(self.source.guarded(lambda: self._place(index, files)))

    def _place(self, index: int, files: int) -> tuple[int, ...]:
        width = len(PLACE_FIELDS)
        if self.reads > BULK_AFTER:
            file, offset, length, item, line, crc = self.source.whole("places")[index * width : (index + 1) * width]
        else:
            file, offset, length, item, line, crc = self.source.items("places", index * width, (index + 1) * width)
        if not (0 <= file < files and offset >= 0 and 0 <= length <= MAX_RECORD_BYTES and item >= -1 and line >= 0):
            raise IndexDamaged(f"the place of row {index} is out of range")
        return file, offset, length, item, line, crc


class Column(Sequence["Any"]):  # quoted: typing is not imported at run time
    """One field of every row, as a read-only sequence."""

    def __init__(self, rows: Rows, field: str, convert: Callable[[str], Any] = str) -> None:
        self.rows, self.position, self.convert = rows, ROW_FIELDS.index(field), convert

    def __len__(self) -> int:
        return len(self.rows)

    def __getitem__(self, index: int) -> Any:  # type: ignore[override]
        return self.convert(self.rows[index][self.position])


def open_source(
    read: Callable[[int, int], bytes], size: int, heal: Callable[[IndexDamaged], Source] | None = None
) -> Source:
    """The index whose `size` bytes `read(offset, length)` gives: its header read and checked, its body not yet."""
    try:
        return _open(read, size, heal)
    except IndexUnusable:
        raise
    except Exception as exc:  # marshal meets arbitrary bytes here: any failure means damage
        raise IndexDamaged(f"{type(exc).__name__} while reading it") from None


def _open(read: Callable[[int, int], bytes], size: int, heal: Callable[[IndexDamaged], Source] | None) -> Source:
    start = read(0, PREFIX)
    if not start.startswith(MAGIC):
        if start.startswith(MAGIC_NAME):
            raise IndexUnusable("index from another version")  # an upgrade, not damage: rebuilt silently
        raise IndexDamaged("not an index file")
    if len(start) < PREFIX:
        raise IndexDamaged("its header is cut short")
    header_size = int.from_bytes(start[len(MAGIC) + 4 :], "little")
    if header_size > min(size - PREFIX, MAX_HEADER_BYTES):
        raise IndexDamaged("its header is cut short")
    header = read(PREFIX, header_size)
    checksum = zlib.crc32(header, zlib.crc32(start[len(MAGIC) + 4 :]))
    if len(header) != header_size or int.from_bytes(start[len(MAGIC) : len(MAGIC) + 4], "little") != checksum:
        raise IndexDamaged("its checksum does not match")
    if header[:1] not in (b"{", b"\xfb"):
        raise IndexDamaged("its header is not a table")
    meta = marshal.loads(header)
    if not isinstance(meta, dict):
        raise IndexDamaged("its header is not a table")
    if meta.get("format") != INDEX_FORMAT or meta.get("version") != __version__:
        raise IndexUnusable("index from another version")  # an upgrade, not damage: rebuilt silently
    _check_meta(meta, size - PREFIX - header_size)
    base = PREFIX + header_size
    checksums = array("I")
    checksums.frombytes(meta["blocks"])
    return Source(meta, Body(lambda offset, length: read(base + offset, length), meta["body"], checksums), heal)


def _check_meta(meta: dict[Any, Any], body: int) -> None:
    """The header's fields have the shapes the catalog relies on, and its sizes agree with each other and the file."""
    count, unindexed, problems, files = (
        meta.get("count"),
        meta.get("unindexed"),
        meta.get("problems"),
        meta.get("files"),
    )
    df, sections, blocks = meta.get("df"), meta.get("sections"), meta.get("blocks")
    if not isinstance(count, int) or count < 0 or meta.get("body") != body:
        raise IndexDamaged("its sizes disagree")
    ok = (
        isinstance(df, dict)
        and all(isinstance(k, str) and isinstance(v, int) and v > 0 for k, v in df.items())
        and isinstance(unindexed, list)
        and all(isinstance(n, int) and 0 <= n < count for n in unindexed)
        and isinstance(problems, list)
        and all(isinstance(p, tuple) and len(p) == 4 and all(isinstance(v, str) for v in p[:2]) for p in problems)
        and isinstance(files, list)
        and isinstance(blocks, bytes)
        and len(blocks) == 4 * -(-body // BLOCK)
        and isinstance(sections, list)
        and len(sections) == len(SECTIONS)
        and all(isinstance(s, tuple) and len(s) == 2 and all(isinstance(v, int) for v in s) for s in sections)
    )
    if not ok:
        raise IndexDamaged("its header fields are of the wrong kinds")
    lengths = {}
    for (name, code), (offset, length) in zip(SECTIONS, sections, strict=True):
        size = array(code).itemsize
        if offset < 0 or length < 0 or offset + length > body or length % size:
            raise IndexDamaged("its sizes disagree")
        lengths[name] = length // size
    if (
        lengths["hashes"] != lengths["postings"]
        or lengths["head_hashes"] != lengths["head_postings"]
        or lengths["wording_rows"] != lengths["head_totals"]
        or lengths["places"] != count * len(PLACE_FIELDS)
        or lengths["row_ends"] != count
    ):
        raise IndexDamaged("its sizes disagree")


def file_reader(handle: BinaryIO) -> Callable[[int, int], bytes]:
    """`read(offset, length)` of an open file: one pread each where there is one (not on Windows)."""
    if hasattr(os, "pread"):
        fd = handle.fileno()
        return lambda offset, length: os.pread(fd, length, offset)

    def seek_and_read(offset: int, length: int) -> bytes:
        handle.seek(offset)
        return handle.read(length)

    return seek_and_read


def memory_source(
    data: bytes | tuple[bytes, bytearray], heal: Callable[[IndexDamaged], Source] | None = None
) -> Source:
    """An index held in memory (just built: whole, or as encode_parts gives it), read the same way as one on disk."""
    start, body = (data, b"") if isinstance(data, bytes) else data

    def read(offset: int, length: int) -> bytes:
        if offset >= len(start):  # the body: a read never spans the two (the header ends where the body begins)
            return bytes(body[offset - len(start) : offset - len(start) + length])
        return start[offset : offset + length]

    return open_source(read, len(start) + len(body), heal)


def decode(data: bytes) -> Source:
    """The index in `data`, every block checked: IndexUnusable or IndexDamaged, whatever the bytes."""
    source = memory_source(data)
    source.body.verify()
    return source
