"""The record index's file format: a checksum, a marshalled header, flat arrays and one text blob.

Flat arrays and one text blob load in a few copies, where a marshalled list of 100,000 small
objects takes most of a second to rebuild. Whatever bytes are read back, decoding raises nothing
but IndexUnusable (rebuilt silently) or IndexDamaged (rebuilt with one warning).
"""

from __future__ import annotations

import marshal
import zlib
from array import array
from bisect import bisect_left
from collections.abc import Callable, Sequence
from typing import Any

from leafexplain.records.catalog import Wording, build_token_index, document_frequency
from leafexplain.version import __version__

INDEX_FORMAT = 4  # 3: a checksum after the magic line; 4: each record's other wordings, word frequencies


class IndexUnusable(Exception):
    """The index file is missing, stale, from another version, or damaged."""


class IndexDamaged(IndexUnusable):
    """The index file is not what leafexplain wrote (truncated, corrupt): worth one warning."""


# A row of the index: the fields the matcher reads, then where the full record lies.
ROW_FIELDS = (
    "id", "repo", "slug", "pattern", "language", "class", "tags",  # what the matcher and the commands read
    "file", "offset", "length", "item", "line",  # where the full record lies
    "variants",  # the record's other wordings
)  # fmt: skip
FIELD_SEP, TAG_SEP = "\x1f", "\x1e"  # validation keeps both out of every indexed field
WORDING_SEP, PART_SEP = "\x1d", "\x1c"  # and these two: a record's other wordings, and the parts of one
MAGIC_NAME = b"LEAFEXPLAIN-INDEX"
# The format's number is in the magic line; after it, the checksum of all that follows, checked
# before anything is parsed (marshal trusts its input: a corrupted size could ask for gigabytes).
MAGIC = MAGIC_NAME + b"/4\n"


def encode_wordings(wordings: tuple[Wording, ...]) -> str:
    return WORDING_SEP.join(PART_SEP.join((p, v, c or "")) for p, v, c in wordings)


def decode_wordings(field: str) -> tuple[Wording, ...]:
    if not field:
        return ()
    out: list[Wording] = []
    for entry in field.split(WORDING_SEP):
        pattern, versions, error_class = entry.split(PART_SEP)
        out.append((pattern, versions, error_class or None))
    return tuple(out)


def encode(meta: dict[str, object], rows: list[str], words: list[tuple[tuple[str, ...], ...]]) -> bytes:
    """Metadata, then flat arrays (row offsets, word hashes and their rows), then the rows' text."""
    token_index, unindexed = build_token_index(words)
    meta = {**meta, "df": document_frequency(words)}
    pairs = sorted((zlib.crc32(word.encode()), n) for word, ns in token_index.items() for n in ns)
    hashes = array("I", (h for h, _ in pairs))
    postings = array("I", (n for _, n in pairs))
    blob = "".join(rows).encode("utf-8")
    offsets = array("Q", [0])
    total = 0
    for row in rows:
        total += len(row.encode("utf-8"))
        offsets.append(total)
    parts = []
    for arr in (offsets, hashes, postings):
        raw = arr.tobytes()
        parts += [len(raw).to_bytes(8, "little"), raw]
    parts.append(blob)
    header = marshal.dumps({**meta, "unindexed": unindexed, "count": len(rows)})
    return sealed(b"".join([len(header).to_bytes(8, "little"), header, *parts]))


def sealed(content: bytes) -> bytes:
    """The magic line, the checksum of the content, the content: a torn or corrupted file is caught
    before any of it is parsed."""
    return MAGIC + zlib.crc32(content).to_bytes(4, "little") + content


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
    for code in ("Q", "I", "I"):
        size = int.from_bytes(data[pos : pos + 8], "little")
        arr = array(code)
        arr.frombytes(data[pos + 8 : pos + 8 + size])
        arrays.append(arr)
        pos += 8 + size
    offsets, hashes, postings = arrays
    blob = data[pos:]
    count = meta.get("count")
    if not isinstance(count, int) or len(offsets) != count + 1 or offsets[0] != 0 or offsets[-1] != len(blob):
        raise IndexDamaged("its sizes disagree")
    _check_meta(meta, count)
    return meta, Rows(blob, offsets), HashedIndex(hashes, postings)


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


class Rows:
    """The index rows, decoded one at a time when asked for."""

    def __init__(self, blob: bytes, offsets: array[int]) -> None:
        self.blob, self.offsets = blob, offsets
        self.cache: dict[int, list[str]] = {}

    def __len__(self) -> int:
        return len(self.offsets) - 1

    def __getitem__(self, index: int) -> list[str]:
        row = self.cache.get(index)
        if row is None:
            if not 0 <= index < len(self):
                raise IndexError(index)
            row = self.blob[self.offsets[index] : self.offsets[index + 1]].decode("utf-8").split(FIELD_SEP)
            self.cache[index] = row
        return row


class Column(Sequence[Any]):
    """One field of every row, as a read-only sequence."""

    def __init__(self, rows: Rows, field: str, convert: Callable[[str], Any] = str) -> None:
        self.rows, self.position, self.convert = rows, ROW_FIELDS.index(field), convert

    def __len__(self) -> int:
        return len(self.rows)

    def __getitem__(self, index: int) -> Any:  # type: ignore[override]
        return self.convert(self.rows[index][self.position])


class HashedIndex:
    """Word -> rows, looked up by the word's checksum in a sorted array (a collision only adds a
    candidate, which the pattern then rejects)."""

    def __init__(self, hashes: array[int], postings: array[int]) -> None:
        self.hashes, self.postings = hashes, postings

    def get(self, word: str, default: Sequence[int] = ()) -> Sequence[int]:
        key = zlib.crc32(word.encode())
        i = bisect_left(self.hashes, key)
        found = []
        while i < len(self.hashes) and self.hashes[i] == key:
            found.append(self.postings[i])
            i += 1
        return found or default
