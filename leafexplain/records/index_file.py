"""The record index's file format: a checksum, a marshalled header, flat arrays and one text blob.

Flat arrays and one text blob load in a few copies, where a marshalled list of 100,000 small
objects takes most of a second to rebuild. Whatever bytes are read back, decoding raises nothing
but IndexUnusable (rebuilt silently) or IndexDamaged (rebuilt with one warning): past the
checksum, the shape of every row and every number is checked before the index is used, in a few
passes at C speed (a file that passes the checksum may still not be ours).
"""

from __future__ import annotations

import marshal
import zlib
from array import array
from bisect import bisect_left
from collections.abc import Callable, Sequence

from leafexplain.records.catalog import Wording, build_token_index, document_frequency
from leafexplain.records.files import MAX_SINGLE_FILE_BYTES
from leafexplain.version import __version__

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: the everyday path does without it
if TYPE_CHECKING:
    from typing import Any

# 3: a checksum after the magic line; 4: each record's other wordings, word frequencies;
# 5: rows ended by ROW_END, each record's place as numbers, their shape checked at load
INDEX_FORMAT = 5


class IndexUnusable(Exception):
    """The index file is missing, stale, from another version, or damaged."""


class IndexDamaged(IndexUnusable):
    """The index file is not what leafexplain wrote (truncated, corrupt): worth one warning."""


# A row of the index: the fields the matcher and the commands read, as text. Where the full record lies
# (PLACE_FIELDS) is kept apart, as numbers.
ROW_FIELDS = ("id", "repo", "slug", "pattern", "language", "class", "tags", "variants")
PLACE_FIELDS = ("file", "offset", "length", "item", "line")
FIELD_SEP, TAG_SEP, ROW_END = "\x1f", "\x1e", "\x1a"  # validation keeps these out of every indexed field
WORDING_SEP, PART_SEP = "\x1d", "\x1c"  # and these two: a record's other wordings, and the parts of one
# What is left of a good blob once everything but the field and row separators is deleted: this, once per row.
_SKELETON = ((FIELD_SEP * (len(ROW_FIELDS) - 1)) + ROW_END).encode()
_NOT_SEPARATORS = bytes(b for b in range(256) if b not in _SKELETON)
MAGIC_NAME = b"LEAFEXPLAIN-INDEX"
# The format's number is in the magic line; after it, the checksum of all that follows, checked
# before anything is parsed (marshal trusts its input: a corrupted size could ask for gigabytes).
MAGIC = MAGIC_NAME + b"/5\n"
MAX_RECORD_BYTES = MAX_SINGLE_FILE_BYTES  # no record is read from more than one file's worth of bytes


def encode_wordings(wordings: tuple[Wording, ...]) -> str:
    return WORDING_SEP.join(PART_SEP.join((p, v, c or "")) for p, v, c in wordings)


def decode_wordings(field: str) -> tuple[Wording, ...]:
    """A record's other wordings; an entry that is not three parts (an index that is not ours) is left out."""
    if not field:
        return ()
    out: list[Wording] = []
    for entry in field.split(WORDING_SEP):
        parts = entry.split(PART_SEP)
        if len(parts) == 3:
            out.append((parts[0], parts[1], parts[2] or None))
    return tuple(out)


def encode(
    meta: dict[str, object], rows: list[str], words: list[tuple[tuple[str, ...], ...]], places: Sequence[int] = ()
) -> bytes:
    """Metadata, then flat arrays (word hashes and their rows, each record's place: PLACE_FIELDS in turn), then
    the rows' text, each ended by ROW_END."""
    token_index, unindexed = build_token_index(words)
    meta = {**meta, "df": document_frequency(words)}
    # (hash, row) pairs sorted as one number each: a third of the memory of a tuple each, at 100,000 records.
    pairs = sorted((zlib.crc32(word.encode()) << 32) | n for word, ns in token_index.items() for n in ns)
    del token_index
    hashes = array("I", (pair >> 32 for pair in pairs))
    postings = array("I", (pair & 0xFFFFFFFF for pair in pairs))
    del pairs
    blob = "".join(row + ROW_END for row in rows).encode("utf-8")
    parts = []
    for arr in (hashes, postings, array("q", places)):
        raw = arr.tobytes()
        parts += [len(raw).to_bytes(8, "little"), raw]
    parts.append(blob)
    header = marshal.dumps({**meta, "unindexed": unindexed, "count": len(rows)})
    return sealed([len(header).to_bytes(8, "little"), header, *parts])


def sealed(content: bytes | list[bytes]) -> bytes:
    """The magic line, the checksum of the content, the content: a torn or corrupted file is caught
    before any of it is parsed. Content in parts is joined once, with the rest (no copy of the whole)."""
    parts = [content] if isinstance(content, bytes) else content
    checksum = 0
    for part in parts:
        checksum = zlib.crc32(part, checksum)
    return b"".join([MAGIC, checksum.to_bytes(4, "little"), *parts])


def decode(data: bytes) -> tuple[dict[str, object], Rows, HashedIndex]:
    """The index's parts, or IndexDamaged: whatever the bytes, nothing else is raised."""
    if not data.startswith(MAGIC):
        if data.startswith(MAGIC_NAME):
            raise IndexUnusable("index from another version")  # an upgrade, not damage: rebuilt silently
        raise IndexDamaged("not an index file")
    start = len(MAGIC) + 4
    if int.from_bytes(data[len(MAGIC) : start], "little") != zlib.crc32(memoryview(data)[start:]):
        raise IndexDamaged("its checksum does not match")
    try:
        return _decode(data)
    except IndexUnusable:
        raise
    except Exception as exc:  # marshal and array meet arbitrary bytes here: any failure means damage
        raise IndexDamaged(f"{type(exc).__name__} while reading it") from None


def _decode(data: bytes) -> tuple[dict[str, object], Rows, HashedIndex]:
    pos = len(MAGIC) + 4
    size = int.from_bytes(data[pos : pos + 8], "little")
    if size > len(data) - pos - 8 or data[pos + 8 : pos + 9] not in (b"{", b"\xfb"):
        raise IndexDamaged("its header is cut short")
    meta = marshal.loads(data[pos + 8 : pos + 8 + size])
    pos += 8 + size
    if not isinstance(meta, dict):
        raise IndexDamaged("its header is not a table")
    if meta.get("format") != INDEX_FORMAT or meta.get("version") != __version__:
        raise IndexUnusable("index from another version")  # an upgrade, not damage: rebuilt silently
    arrays = []
    for code in ("I", "I", "q"):
        size = int.from_bytes(data[pos : pos + 8], "little")
        arr = array(code)
        arr.frombytes(data[pos + 8 : pos + 8 + size])
        arrays.append(arr)
        pos += 8 + size
    hashes, postings, places = arrays
    count = meta.get("count")
    if not isinstance(count, int) or count < 0:
        raise IndexDamaged("its sizes disagree")
    _check_meta(meta, count)
    rows = _check_rows(data[pos:], count)
    if len(places) != count * len(PLACE_FIELDS):
        raise IndexDamaged("its sizes disagree")
    if len(hashes) != len(postings):
        raise IndexDamaged("its sizes disagree")
    return meta, Rows(rows, places), HashedIndex(hashes, postings, count)


def _check_meta(meta: dict[Any, Any], count: int) -> None:
    """The header's fields have the shapes `to_catalog` relies on."""
    unindexed, problems, files = meta.get("unindexed"), meta.get("problems"), meta.get("files")
    df = meta.get("df")
    ok = (
        isinstance(df, dict)
        and all(isinstance(k, str) and isinstance(v, int) for k, v in df.items())
        and isinstance(unindexed, list)
        and all(isinstance(n, int) and 0 <= n < count for n in unindexed)
        and isinstance(problems, list)
        and all(isinstance(p, tuple) and len(p) == 4 and all(isinstance(v, str) for v in p[:2]) for p in problems)
        and isinstance(files, list)
    )
    if not ok:
        raise IndexDamaged("its header fields are of the wrong kinds")


def _check_rows(blob: bytes, count: int) -> list[bytes]:
    """The rows, once every one is known to have all its fields: with everything but the separators deleted,
    a good blob is the skeleton of one row, `count` times."""
    if count * len(_SKELETON) > len(blob) or blob.translate(None, _NOT_SEPARATORS) != _SKELETON * count:
        raise IndexDamaged("its rows are malformed")
    return blob.split(ROW_END.encode())[:-1]


class Rows:
    """The index rows, decoded one at a time when asked for, and where each record lies."""

    def __init__(self, rows: list[bytes], places: array[int]) -> None:
        self.rows, self.places = rows, places
        self.cache: dict[int, list[str]] = {}

    def __len__(self) -> int:
        return len(self.rows)

    def __getitem__(self, index: int) -> list[str]:
        row = self.cache.get(index)
        if row is None:
            # Every row has its fields (checked at load); text that is not UTF-8 cannot pass for a record's:
            # the record read from its file is compared with it.
            row = self.rows[index].decode("utf-8", "replace").split(FIELD_SEP)
            self.cache[index] = row
        return row

    def place(self, index: int, files: int) -> tuple[int, ...]:
        """(file, offset, length, item, line) of the record in row `index`, of the `files` the header names.
        Checked here, for the few records a run reads in full, rather than all of them at load; a place that
        cannot be (a file not named, a length past any record's) means the index is not ours: IndexDamaged."""
        width = len(PLACE_FIELDS)
        file, offset, length, item, line = self.places[index * width : (index + 1) * width]
        if not (0 <= file < files and offset >= 0 and 0 <= length <= MAX_RECORD_BYTES and item >= -1 and line >= 0):
            raise IndexDamaged(f"the place of row {index} is out of range")
        return file, offset, length, item, line


class Column(Sequence["Any"]):  # quoted: typing is not imported at run time
    """One field of every row, as a read-only sequence."""

    def __init__(self, rows: Rows, field: str, convert: Callable[[str], Any] = str) -> None:
        self.rows, self.position, self.convert = rows, ROW_FIELDS.index(field), convert

    def __len__(self) -> int:
        return len(self.rows)

    def __getitem__(self, index: int) -> Any:  # type: ignore[override]
        return self.convert(self.rows[index][self.position])


class HashedIndex:
    """Word -> rows, looked up by the word's checksum in a sorted array (a collision only adds a
    candidate, which the pattern then rejects). A row number past the rows (an index that is not ours)
    is passed over here, for the few words a run looks up, rather than checked for all at load."""

    def __init__(self, hashes: array[int], postings: array[int], rows: int) -> None:
        self.hashes, self.postings, self.rows = hashes, postings, rows

    def get(self, word: str, default: Sequence[int] = ()) -> Sequence[int]:
        key = zlib.crc32(word.encode())
        i = bisect_left(self.hashes, key)
        found = []
        while i < len(self.hashes) and self.hashes[i] == key:
            if self.postings[i] < self.rows:
                found.append(self.postings[i])
            i += 1
        return found or default
