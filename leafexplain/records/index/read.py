"""Reading the record index (format.py's): the file opened and found current, its header checked, its body block
by block as used.

Each block's checksum is checked the first time it is read, so no byte is used unchecked, and a run
at 100,000 records reads a few dozen blocks of 4 KiB. Whatever bytes are read back, nothing is raised
but IndexUnusable or IndexDamaged; a Source given a way to heal replaces what it reads with a fresh
build, once, on damage found while reading (heal.py).
"""

from __future__ import annotations

import errno
import marshal
import os
import sys
import zlib
from array import array
from collections.abc import Callable, Mapping

from leafexplain.records.files import Fingerprint, Seal
from leafexplain.records.index.format import (
    BLOCK,
    INDEX_FORMAT,
    MAGIC,
    MAGIC_NAME,
    MAX_HEADER_BYTES,
    PLACE_FIELDS,
    PREFIX,
    SECTIONS,
    IndexDamaged,
    IndexUnusable,
)
from leafexplain.safeio import FileTooLarge, NotRegularFile, open_regular
from leafexplain.version import __version__

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: the everyday path does without it
if TYPE_CHECKING:
    from typing import Any, BinaryIO

_NUMBER = {name: n for n, (name, _) in enumerate(SECTIONS)}
KEPT_BLOCKS = 64  # a read of more blocks than this checks them without keeping them
SEALED_INDEX_BYTES = 64 << 20


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
    df, sections, blocks, codes = meta.get("df"), meta.get("sections"), meta.get("blocks"), meta.get("codes")
    class_only = meta.get("class_only")
    if not isinstance(count, int) or count < 0 or meta.get("body") != body:
        raise IndexDamaged("its sizes disagree")
    ok = (
        isinstance(df, dict)
        and all(isinstance(k, str) and isinstance(v, int) and v > 0 for k, v in df.items())
        and isinstance(unindexed, list)
        and all(isinstance(n, int) and 0 <= n < count for n in unindexed)
        and isinstance(class_only, dict)
        and all(isinstance(n, int) and 0 <= n < count and isinstance(v, str) for n, v in class_only.items())
        and isinstance(codes, dict)
        and all(
            isinstance(k, str) and isinstance(v, list) and all(isinstance(n, int) and 0 <= n < count for n in v)
            for k, v in codes.items()
        )
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
        or lengths["member_ends"] != lengths["head_totals"]
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


def read_index(
    path: str,
    files: Fingerprint,
    heal: Callable[[IndexDamaged], Source] | None = None,
    seals: Mapping[int, Seal] = {},
) -> Source:
    """The index at `path`, its header read and checked; its body is read as it is used (and healed on damage).

    It is current when it was built from `files` and, for each sealed source, from the folder its seal names.
    """
    # Rows hold a few fields of each record: an index many times the records' size is not ours (a sealed
    # source, the bundled records, is not measured: it is allowed what a pack many times today's takes).
    largest = 16 * sum(f[1] for f in files) + (1 << 20) + SEALED_INDEX_BYTES * len(seals)
    try:
        # Checked once open, never followed: a symlink to /dev/zero, a FIFO or a folder there is not an index.
        handle = open_regular(path, max_bytes=largest, follow=False, buffering=0)
    except FileNotFoundError:
        raise IndexUnusable("no index yet") from None
    except FileTooLarge as exc:
        raise IndexDamaged(f"{exc.size} bytes is far too large for these records") from None
    except NotRegularFile:
        raise IndexDamaged("it is not a regular file") from None
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.EMLINK):  # O_NOFOLLOW met a symlink
            raise IndexDamaged("it is a symlink") from None
        raise IndexUnusable(f"unreadable index ({exc.strerror or exc})") from None
    try:
        source = open_source(file_reader(handle), os.fstat(handle.fileno()).st_size, heal)
        if source.meta.get("python") != sys.version:
            raise IndexUnusable("index from another Python")
        if source.meta.get("seals", {}) != seals or _loose(source.meta.get("files"), seals) != files:
            raise IndexUnusable("record files changed")
    except BaseException:
        handle.close()
        raise
    source.handle = handle  # open while the index is read from, closed with it
    return source


def _loose(files: object, seals: Mapping[int, Seal]) -> object:
    """The index's files that are not in a sealed source (anything else as it is: it will not match)."""
    if not seals or not isinstance(files, list):
        return files
    return [f for f in files if not (isinstance(f, tuple) and len(f) == 4 and f[3] in seals)]
