"""The record index's file format: its layout, sections and row fields, and the bytes of an index built from rows.

Layout: the magic line (MAGIC, with the format's number); the CRC-32 of what follows up to the body
(the header's size, then the header); the header's size (8 bytes); the header (marshal: format,
version, Python, the record files, problems, each error code's compile records, counts, each
section's place, the CRC-32 of every BLOCK bytes of the body); the body (SECTIONS, each 8-byte
aligned). A run at 100,000 records needs a few dozen rows and a few words' postings: read.py reads
the header and then only the blocks that hold them, each checked the first time it is read.
"""

from __future__ import annotations

import marshal
import zlib
from array import array
from collections.abc import Sequence

from leafexplain.records.catalog import Wording, document_frequency, word_weight
from leafexplain.records.files import MAX_SINGLE_FILE_BYTES
from leafexplain.records.postings import build_head_index, build_token_index

# 3: a checksum after the magic line; 4: each record's other wordings, word frequencies;
# 5: rows ended by ROW_END, each record's place as numbers, their shape checked at load;
# 6: a checksum per block, read as needed; postings name the wording; each wording's head words
# 8: the header's `codes`, error code -> the rows of its compile records
INDEX_FORMAT = 8


class IndexUnusable(Exception):
    """The index file is missing, stale, from another version, or damaged."""


class IndexDamaged(IndexUnusable):
    """The index file is not what leafexplain wrote (truncated, corrupt): worth one warning."""


# A row of the index: the fields the matcher and the commands read, as text. Where the full record lies
# (PLACE_FIELDS) is kept apart, as numbers.
ROW_FIELDS = ("id", "repo", "slug", "pattern", "language", "class", "tags", "variants")
PLACE_FIELDS = ("file", "offset", "length", "item", "line", "crc")
FIELD_SEP, TAG_SEP = "\x1f", "\x1e"  # validation keeps these out of every indexed field
WORDING_SEP, PART_SEP = "\x1d", "\x1c"  # and these two: a record's other wordings, and the parts of one
MAGIC_NAME = b"LEAFEXPLAIN-INDEX"
# The format's number is in the magic line; after it, the checksum of the header (its size, then the
# header), checked before the header is parsed (marshal trusts its input: a corrupted size could ask for
# gigabytes). The header holds the checksum of each block of the body.
MAGIC = MAGIC_NAME + b"/6\n"
PREFIX = len(MAGIC) + 4 + 8
MAX_HEADER_BYTES = 64 << 20
BLOCK = 1 << 12  # a page: a lookup reads a few, checked in microseconds
MAX_RECORD_BYTES = MAX_SINGLE_FILE_BYTES  # no record is read from more than one file's worth of bytes
# The body's sections, in order, and their array type codes.
SECTIONS = (
    ("hashes", "I"),  # the checksum of each indexed word (the rarest of each wording), sorted
    ("postings", "I"),  # beside each, a posting (catalog.posting: row, wording, words indexed)
    ("head_hashes", "I"),  # the checksum of each word of each wording's head, sorted
    ("head_postings", "I"),  # beside each, the wording, numbered over all rows
    ("wording_rows", "I"),  # of each wording: its row
    ("head_totals", "d"),  # and its head's weight
    ("places", "q"),  # PLACE_FIELDS of each row in turn
    ("row_ends", "Q"),  # where each row's text ends in `rows`
    ("rows", "B"),  # the rows' text, UTF-8, fields separated by FIELD_SEP
)


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


def encode_parts(
    meta: dict[str, object], rows: list[str], words: list[tuple[tuple[str, ...], ...]], places: Sequence[int] = ()
) -> tuple[bytes, bytearray]:
    """The index file as its start (magic line, checksum, header) and its body, not joined: at 100,000 records
    a copy of the whole is 27 MB. `rows` and `words` are emptied as they are used (they are the build's)."""
    df = document_frequency(words)  # first: its count of every word is freed before the index is made
    keys, unindexed = build_token_index(words, df)
    words.clear()
    hashes, postings = array("I", (k >> 32 for k in keys)), array("I", (k & 0xFFFFFFFF for k in keys))
    del keys
    count = len(rows)

    def weight(word: str) -> float:
        return word_weight(count, df.get(word, 1))

    def wordings(row: str) -> list[str]:
        fields = (row.split(FIELD_SEP) + [""] * len(ROW_FIELDS))[: len(ROW_FIELDS)]  # a crafted row too
        return [fields[3], *(v[0] for v in decode_wordings(fields[7]))]

    # One row at a time (generators, not lists): at 100,000 records a list of each row's fields is 60 MB.
    keys, wording_rows, head_totals = build_head_index(map(wordings, rows), weight)
    head_hashes, head_postings = array("I", (k >> 32 for k in keys)), array("I", (k & 0xFFFFFFFF for k in keys))
    del keys
    row_ends = array("Q", bytes(8 * len(rows)))  # filled in as the rows are written, after the arrays
    arrays = [hashes, postings, head_hashes, head_postings, wording_rows, head_totals, array("q", places), row_ends]
    del hashes, postings, head_hashes, head_postings, wording_rows, head_totals
    sections: list[tuple[int, int]] = []
    offset = 0
    for size in [len(a) * a.itemsize for a in arrays]:
        offset += -offset % 8  # every section starts aligned
        sections.append((offset, size))
        offset += size
    offset += -offset % 8
    body = bytearray(offset)
    for (at, size), part in zip(sections, arrays[:-1], strict=False):
        body[at : at + size] = part.tobytes()
    arrays.clear()
    for n, row in enumerate(rows):  # each row encoded once, appended: no joined copy of them all
        body += row.encode("utf-8")
        row_ends[n] = len(body) - offset
    rows.clear()
    sections.append((offset, len(body) - offset))
    at, size = sections[-2]
    body[at : at + size] = row_ends.tobytes()
    view = memoryview(body)
    checksums = array("I", (zlib.crc32(view[at : at + BLOCK]) for at in range(0, len(body), BLOCK)))
    view.release()
    header = marshal.dumps(
        {
            **meta,
            "df": df,
            "unindexed": unindexed,
            "count": count,
            "sections": sections,
            "blocks": checksums.tobytes(),
            "body": len(body),
        }
    )
    size = len(header).to_bytes(8, "little")
    return sealed([size, header]), body


def sealed(content: bytes | list[bytes]) -> bytes:
    """The magic line, the checksum of the header (the size that opens `content`, and as many bytes after it),
    then the content: given whole, or as [size, header, body] (joined once, with the rest: no copy of the whole)."""
    parts = [content] if isinstance(content, bytes) else content
    if len(parts) == 1:
        checksum = zlib.crc32(parts[0][: 8 + int.from_bytes(parts[0][:8], "little")])
    else:
        checksum = zlib.crc32(parts[1], zlib.crc32(parts[0]))
    return b"".join([MAGIC, checksum.to_bytes(4, "little"), *parts])
