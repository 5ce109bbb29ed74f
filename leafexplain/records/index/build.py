"""Building the record index: every record file parsed and validated, each record's row, words and place."""

from __future__ import annotations

import sys
from array import array
from collections.abc import Callable

from leafexplain.models import Problem
from leafexplain.records.catalog import class_level, code_rows, record_code, record_wordings
from leafexplain.records.files import Fingerprint, raw_records
from leafexplain.records.index.format import FIELD_SEP, INDEX_FORMAT, TAG_SEP, encode_wordings
from leafexplain.records.postings import DistinctWordings
from leafexplain.records.schema import validate_record
from leafexplain.version import __version__

Progress = Callable[[int, int], None]  # bytes done, bytes in all
Built = tuple[dict[str, object], list[str], list[tuple[int, ...]], "array[int]", DistinctWordings]


def build_rows(files: Fingerprint, progress: Progress | None = None) -> Built:
    """Parse and validate every record file (later ids replace earlier).

    Returns the index's metadata (with the compile records of each error code among it), one encoded row per
    record, the numbers of each record's wordings, where each record lies (PLACE_FIELDS for each row in turn),
    and the distinct wordings (one entry for all the records that share one).
    """
    position: dict[str, int] = {}  # id -> row
    rows: list[str] = []
    codes: list[str | None] = []  # each row's error code (a compile record's), for the header's code -> rows
    classed: list[bool] = []  # each row: a class and a wording that is a placeholder alone (format.py: `class_only`)
    words: list[tuple[int, ...]] = []
    distinct = DistinctWordings()
    places = array("q")  # PLACE_FIELDS of each row in turn: numbers in place, at 100,000 records
    problems: list[Problem] = []
    total = sum(f[1] for f in files) or 1
    done = 0
    # id -> where it was last seen (file number and line, as one number), for each source
    seen_in_source: dict[int, dict[str, int]] = {}
    for file_number, (path, size, _, source_number) in enumerate(files):
        try:
            for data, version, loc, found in raw_records(path, size):
                problems.extend(found)
                if data is None and found:
                    continue
                record, invalid = validate_record(data, path, loc[4] or None, version)
                problems.extend(invalid)
                if record is None:
                    continue
                seen = seen_in_source.setdefault(source_number, {})
                earlier = seen.get(record.id)
                if earlier is not None:
                    message = f"duplicate id {record.id} (also in {_origin(files, earlier)}); the later one is used"
                    problems.append(Problem(record.origin, message, field="id"))
                seen[record.id] = (file_number << 32) | loc[4]
                variants = record_wordings(record)
                fields = (  # format.ROW_FIELDS, in order
                    record.id,
                    record.repo,
                    record.slug,
                    record.messagePattern,
                    record.language,
                    record.errorClass or "",
                    TAG_SEP.join(record.tags),
                    encode_wordings(variants),
                )
                row, place = FIELD_SEP.join(fields), (file_number, *loc[1:])
                tokens = distinct.add([record.messagePattern, *(v[0] for v in variants)])
                if record.id in position:
                    rows[position[record.id]] = row
                    codes[position[record.id]] = record_code(record)
                    classed[position[record.id]] = class_level(record)
                    words[position[record.id]] = tokens
                    at = position[record.id] * len(place)
                    places[at : at + len(place)] = array("q", place)
                else:
                    position[record.id] = len(rows)
                    rows.append(row)
                    codes.append(record_code(record))
                    classed.append(class_level(record))
                    words.append(tokens)
                    places.extend(place)
        except OSError as exc:
            problems.append(Problem(path, f"cannot read: {exc.strerror or exc}"))
        done += size
        if progress:
            progress(done, total)
    meta: dict[str, object] = {
        "format": INDEX_FORMAT,
        "version": __version__,
        "python": sys.version,
        "files": files,
        "problems": [(p.path, p.message, p.line, p.field) for p in problems],
        "codes": code_rows(codes),
        "classed": [n for n, is_classed in enumerate(classed) if is_classed],
    }
    return meta, rows, words, places, distinct


def _origin(files: Fingerprint, seen: int) -> str:
    """A record's origin (as validate_record writes it) from its file number and line."""
    path, line = files[seen >> 32][0], seen & 0xFFFFFFFF
    return f"{path}:{line}" if line else path
