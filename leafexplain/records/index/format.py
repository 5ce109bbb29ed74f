"""The record index's file format: its layout, sections and row fields, and the bytes of an index built from rows.

Layout: the magic line (MAGIC, with the format's number); the CRC-32 of what follows up to the body
(the header's size, then the header); the header's size (8 bytes); the header (marshal: format,
version, Python, the record files, problems, each error code's compile records, counts, each
section's place, the CRC-32 of every BLOCK bytes of the body); the body (SECTIONS, the rows' text
first, then the others, each 8-byte aligned). A run at 100,000 records needs a few dozen rows and a
few words' postings: read.py reads the header and then only the blocks that hold them, each checked
the first time it is read.
"""

from __future__ import annotations

import marshal
import zlib
from array import array
from collections.abc import Sequence

from leafexplain.records.catalog import Wording, word_weight
from leafexplain.records.files import MAX_SINGLE_FILE_BYTES
from leafexplain.records.postings import DistinctWordings, build_head_index, build_token_index, document_frequency

# 3: a checksum after the magic line; 4: each record's other wordings, word frequencies;
# 5: rows ended by ROW_END, each record's place as numbers, their shape checked at load;
# 6: a checksum per block, read as needed; postings name the wording; each wording's head words
# 8: records that share a wording share its entry: postings and heads name a distinct wording, its members its rows
# 9: the header's `codes`, error code -> the rows of its compile records
# 10: the header's `class_only`, the rows of the class-level records (catalog.class_only_rows)
INDEX_FORMAT = 10


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
    ("hashes", "I"),  # the checksum of each indexed word (the rarest of each distinct wording), sorted
    ("postings", "I"),  # beside each, a posting (postings.py: the distinct wording, its words indexed)
    ("head_hashes", "I"),  # the checksum of each word of each distinct wording's head, sorted
    ("head_postings", "I"),  # beside each, the distinct wording
    ("head_totals", "d"),  # of each distinct wording: its head's weight
    ("member_ends", "I"),  # and where its members end in `members`
    ("members", "I"),  # the rows that have each distinct wording (postings.member: row, which wording), by row
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
    meta: dict[str, object],
    rows: list[str],
    words: list[tuple[int, ...]],
    places: Sequence[int],
    distinct: DistinctWordings,
) -> tuple[bytes, bytearray]:
    """The index file as its start (magic line, checksum, header) and its body, not joined: at 100,000 records
    a copy of the whole is 27 MB. `rows`, `words` (each row's distinct wordings) and `distinct` are emptied as
    they are used (they are the build's)."""
    # The rows' text first, each row freed as it is written: the index's arrays are made in the memory they held
    # (at 100,000 records the rows and their copy in the body were 36 MB at once).
    count = len(rows)
    body = bytearray()
    row_ends = array("Q")
    classed = set(meta.pop("classed", ()))  # type: ignore[call-overload]
    classed_rows: dict[int, str] = {}
    for n, row in enumerate(rows):  # each row encoded once, appended: no joined copy of them all
        if n in classed:
            classed_rows[n] = row
        body += row.encode("utf-8")
        row_ends.append(len(body))
        rows[n] = ""
    rows.clear()
    text_section = (0, len(body))
    distinct.number.clear()
    tokens = distinct.tokens()
    df = document_frequency(words, tokens)  # its count of every word is freed before the index is made
    keys, members, member_ends, unindexed = build_token_index(words, tokens, df)
    # The class-level records' rows, whole, in the header: every Python error asks for them (catalog.class_only_rows,
    # their class and language), and read from the body they are a block each (200 reads, a tenth of a run).
    class_only = {n: classed_rows[n] for n in unindexed if n in classed_rows}
    del classed_rows
    words.clear()
    del tokens
    hashes, postings = array("I", (k >> 32 for k in keys)), array("I", (k & 0xFFFFFFFF for k in keys))
    del keys

    def weight(word: str) -> float:
        return word_weight(count, df.get(word, 1))

    keys, head_totals = build_head_index(distinct.patterns, weight)
    distinct.patterns.clear()
    head_hashes, head_postings = array("I", (k >> 32 for k in keys)), array("I", (k & 0xFFFFFFFF for k in keys))
    del keys
    arrays = [hashes, postings, head_hashes, head_postings, head_totals, member_ends, members, array("q", places)]
    arrays.append(row_ends)
    del hashes, postings, head_hashes, head_postings, head_totals, member_ends, members, row_ends
    sections: list[tuple[int, int]] = []
    for part in arrays:  # after the rows' text, each section aligned
        body += bytes(-len(body) % 8)
        sections.append((len(body), len(part) * part.itemsize))
        body += part.tobytes()
    arrays.clear()
    sections.append(text_section)
    view = memoryview(body)
    checksums = array("I", (zlib.crc32(view[at : at + BLOCK]) for at in range(0, len(body), BLOCK)))
    view.release()
    header = marshal.dumps(
        {
            **meta,
            "df": df,
            "unindexed": unindexed,
            "class_only": class_only,
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
