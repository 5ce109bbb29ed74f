"""The record index as a catalog: its rows and columns decoded as asked for, its words looked up, a full record read
from where its row says it lies."""

from __future__ import annotations

import zlib
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Mapping, Sequence

from leafexplain.jsoncodec import loads
from leafexplain.models import Problem, Record
from leafexplain.records.catalog import Catalog
from leafexplain.records.files import Fingerprint, unwrap
from leafexplain.records.index.format import (
    FIELD_SEP,
    MAX_RECORD_BYTES,
    PLACE_FIELDS,
    ROW_FIELDS,
    TAG_SEP,
    IndexDamaged,
    IndexUnusable,
    decode_wordings,
)
from leafexplain.records.index.read import Source
from leafexplain.records.postings import WORDS_BITS, HeadIndex, Members, member_row
from leafexplain.records.schema import validate_record
from leafexplain.safeio import inside, open_regular

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: the everyday path does without it
if TYPE_CHECKING:
    from typing import Any

WHOLE_BYTES = 1 << 18  # a section this small is read whole when first searched
BULK_AFTER = 256  # rows read one by one before a command is taken to read them all (list, search, show)


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


def members_of(source: Source, count: int) -> Members:
    """The members of a distinct wording (its rows), read as asked for; past BULK_AFTER lookups (a message of
    common words, that many wordings name), the two sections are read whole. A member past the rows, or a
    wording past the table (an index that is not ours), is passed over."""
    looked = [0]

    def read(number: int) -> list[int]:
        wordings = source.length("member_ends")
        if not 0 <= number < wordings:
            return []
        looked[0] += 1
        if looked[0] > BULK_AFTER:
            ends: Sequence[int] = source.whole("member_ends")
            start, end = (ends[number - 1] if number else 0), ends[number]
        else:
            ends = source.items("member_ends", max(number - 1, 0), number + 1)
            start, end = (0, ends[0]) if number == 0 else (ends[0], ends[1])
        if not start <= end <= source.length("members"):
            raise IndexDamaged(f"the members of wording {number} are out of range")
        found = source.whole("members")[start:end] if looked[0] > BULK_AFTER else source.items("members", start, end)
        return [m for m in found if member_row(m) < count]

    return lambda number: source.guarded(lambda: read(number))


def _fields(index: int, text: str) -> list[str]:
    row = text.split(FIELD_SEP)
    if len(row) != len(ROW_FIELDS):
        raise IndexDamaged(f"row {index} is malformed")
    return row


class Rows:
    """The index rows, decoded one at a time when asked for, and where each record lies."""

    def __init__(self, source: Source) -> None:
        self.source = source
        # The rows the header holds (the class-level records', format.py): never read from the body.
        self.cache: dict[int, list[str]] = {n: _fields(n, text) for n, text in source.meta["class_only"].items()}
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
        return _fields(index, raw.decode("utf-8", "replace"))

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


def fetcher(files: Fingerprint, rows: Rows, sealed: Mapping[int, str] = {}) -> Callable[[int], Record]:
    """Read one full record from where the index says it lies. `sealed`: the sealed sources' folders, by number."""

    def fetch(index: int) -> Record:
        row = rows[index]
        file_number, offset, length, item, line, crc = rows.place(index, len(files))
        entry = files[file_number]
        if not (isinstance(entry, tuple) and len(entry) == 4 and isinstance(entry[0], str) and type(entry[3]) is int):
            raise IndexDamaged(f"the file of row {index} is out of shape")  # a sealed source's, not compared
        path = entry[0]
        raw = b""
        try:
            with open_regular(path) as handle:  # replaced by a FIFO since the scan: refused, not waited on
                handle.seek(offset)
                raw = handle.read(length)
            parsed = loads(raw)
            data, version = unwrap(parsed[item] if item >= 0 else parsed)
        except (OSError, ValueError, RecursionError, IndexError, TypeError, KeyError):
            data, version = None, None
        # A record shipped with leafexplain (a sealed source: the installed records, which the project's own
        # tests validate) read as the very bytes its index's build checked: only their types are checked again.
        # A user's record, or any other bytes, is checked in full (an index is no proof: anyone may write one).
        root = sealed.get(entry[3])
        checked = root is not None and zlib.crc32(raw) == crc and inside(path, root)
        record, _ = validate_record(data, path, line or None, version, checked=checked)
        if record is None or record.id != row[0]:
            raise IndexUnusable(f"{path} changed while leafexplain was reading it")
        return record

    return fetch


def to_catalog(source: Source, sources: list[str], sealed: Mapping[int, str] = {}) -> Catalog:
    """The catalog over an index (read from its file, or just built): its rows' columns, its word indexes, and
    each full record fetched from its file when asked for."""
    meta = source.meta
    rows = Rows(source)
    count, wordings = len(rows), source.length("head_totals")
    members = members_of(source, count)
    return Catalog(
        ids=Column(rows, "id"),
        repos=Column(rows, "repo"),
        slugs=Column(rows, "slug"),
        patterns=Column(rows, "pattern"),
        languages=Column(rows, "language"),
        classes=Column(rows, "class", lambda v: v or None),
        tags=Column(rows, "tags", lambda v: v.split(TAG_SEP) if v else []),
        token_index=HashedIndex(source, "hashes", "postings", lambda p: p >> WORDS_BITS < wordings),
        members=members,
        unindexed=meta["unindexed"],
        fetch=fetcher(meta["files"], rows, sealed),
        variants=Column(rows, "variants", decode_wordings),
        document_frequency=meta["df"],
        codes=meta["codes"],
        class_only=list(meta["class_only"]),
        problems=tuple(Problem(path, message, line, field) for path, message, line, field in meta["problems"]),
        sources=tuple(sources),
        heads=HeadIndex(
            HashedIndex(source, "head_hashes", "head_postings", lambda g: g < wordings),
            lambda: source.guarded(lambda: source.whole("head_totals")),
            members,
        ),
    )
