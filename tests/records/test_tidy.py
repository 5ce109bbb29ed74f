"""Tidy checks over the bundled records: well-formed, unambiguous, pinned to real commits."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from leafexplain.extract.common import short_class
from leafexplain.match import DEFAULT_THRESHOLD, PARSER_CLASSES
from leafexplain.match.place import raises_in_its_frame
from leafexplain.models import ErrorEvent, Frame
from leafexplain.records.patterns import compile_pattern, placeholder_only
from leafexplain.records.schema import FIELDS
from tests.conftest import RECORDS, SEED_ID, bundled_records, load_bundled_matcher

LOADED = bundled_records()
ALL = LOADED.records
MATCHER = load_bundled_matcher()
URL = re.compile(
    r"^https://github\.com/(?P<repo>[^/]+/[^/]+)/blob/(?P<sha>[0-9a-f]{40})/(?P<path>\S+)#L(?P<start>\d+)-L(?P<end>\d+)$"
)
FILES = sorted(RECORDS.rglob("*.json"))


def test_every_record_file_loads_cleanly() -> None:
    assert LOADED.problems == ()
    assert len(ALL) == len(FILES)


def test_counts_per_repository() -> None:
    counts = Counter(r.repo for r in ALL)
    assert counts["tracel-ai/burn"] >= 30
    assert counts["pytorch/pytorch"] >= 30
    assert counts["rust-lang/rust"] >= 20
    assert counts["python/cpython"] >= 20


def test_ids_and_slugs_unique() -> None:
    ids = Counter(r.id for r in ALL)
    slugs = Counter(r.slug for r in ALL)
    assert [i for i, n in ids.items() if n > 1] == []
    assert [s for s, n in slugs.items() if n > 1] == []
    assert all(re.fullmatch(r"[0-9a-f]{16}", r.id) for r in ALL)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_file_layout_and_field_order(path: Path) -> None:
    data = json.loads(path.read_text())
    assert set(data) == {"record", "datasetVersion"}
    record = data["record"]
    assert list(record) == [name for name in FIELDS if name in record]  # every seed field, in order
    assert set(FIELDS) - set(record) <= {"messageVariants"}  # only our optional extension may be absent
    assert path.parent.relative_to(RECORDS).as_posix() == record["repo"]
    assert path.stem == record["slug"]
    if record["id"] != SEED_ID:
        assert record["sourceCode"] == "", "no library source is copied into a record"
        marker = "//" if record["errorType"] in ("panic", "compile") else "#"  # Rust's comment, or Python's
        fix = record["exampleFix"]
        assert fix.startswith(f"{marker} before\n") and f"\n{marker} after\n" in fix


@pytest.mark.parametrize("record", ALL, ids=lambda r: r.slug)
def test_links_and_lines_are_pinned(record) -> None:
    m = URL.match(record.githubUrl or "")
    assert m, record.githubUrl
    assert m["repo"] == record.repo and m["path"] == record.filePath
    assert (int(m["start"]), int(m["end"])) == (record.sourceCodeStart, record.sourceCodeEnd)
    assert m["sha"] == record.analyzedSha
    assert record.sourceCodeStart <= record.lineNumber <= record.sourceCodeEnd


def raised_at(record) -> Frame | None:
    """The innermost frame of a traceback of the record's error: a library's `raise` in its own Python file shows
    that file, installed; the interpreter's C errors (and a class alone: JavaScript prints TypeError too, a
    Python frame says it is Python's) are raised in the user's code. A Rust record of a crate's own `src/` file
    panics there, unpacked in cargo's registry; std's and the others have none."""
    if record.language == "rust":
        crate = _CRATE_FILE.match(record.filePath or "") if record.repo != "rust-lang/rust" else None
        if crate is None:
            return None
        return Frame(f"{REGISTRY}/{crate['crate']}-0.0.0/src/{crate['rest']}", record.lineNumber, 5)
    if record.language != "python":
        return None
    if record.repo != "python/cpython" and raises_in_its_frame(record.filePath):
        return Frame(f"/venv/lib/python3.11/site-packages/{record.filePath.removeprefix('src/')}", record.lineNumber)
    if placeholder_only(record.messagePattern) or not raises_in_its_frame(record.filePath):
        return Frame("main.py", 1)
    return None


# A crate's own file in its repository (`crates/burn-compute/src/compute.rs`, or at the top, `burn-compute/src/…`).
_CRATE_FILE = re.compile(r"(?:crates/)?(?P<crate>[a-z][a-z0-9_-]*)/src/(?P<rest>.+\.rs)$")
REGISTRY = "/home/u/.cargo/registry/src/index.crates.io-6f17d22bba15001f"


def told_apart(record, other) -> bool:
    """Two wordings as specific that the place tells apart: a library's `raise` of the interpreter's words (torch's
    nn.Module `'X' object has no attribute 'y'`) is first where its frame raised it, the interpreter's where the
    user's code did (match/place.py). A message alone, with no frame, is either's. Two crates' panics of one wording
    are told apart by the crate folder the panic is located in (burn-compute's `Client already created for device`
    before cubecl-runtime's)."""
    if record.language == "rust":
        return record.repo != other.record.repo and None not in (raised_at(record), raised_at(other.record))
    library, interpreter = (record, other.record) if other.record.repo == "python/cpython" else (other.record, record)
    return (
        interpreter.repo == "python/cpython"
        and library.repo != "python/cpython"
        and raises_in_its_frame(library.filePath)
        and not raises_in_its_frame(interpreter.filePath)
    )


@pytest.mark.parametrize("record", ALL, ids=lambda r: r.slug)
def test_own_message_is_explained_first_by_its_record(record) -> None:
    """A record's own message finds it first; a more general record may follow it (`not implemented:
    {}` after burn's `not implemented: Same padding ...`), never one as specific or more."""
    event = ErrorEvent(
        language=record.language,
        error_type=record.errorClass or record.errorType,
        message=record.errorMessage,
        code=record.errorCode if record.errorType == "compile" else None,  # rustc says the code with its message
        location=raised_at(record),
    )
    result = MATCHER.match(event)
    first = result.matches[0]
    class_only = compile_pattern(record.messagePattern).literal_chars == 0
    if class_only and first.record.id != record.id and first.method != "class":
        # A class's record is the answer when no wording is: a wording record of the same class may explain the
        # class record's typical message first (requests' `404 Client Error: ...` before HTTPError's record).
        assert short_class(first.record.errorClass) == short_class(record.errorClass), first.record.slug
        return
    if first.record.id != record.id:
        # A wrapper's message (`failed to spawn thread: {error:?}`) that carries an error with a record of its
        # own (`Os { .. kind: WouldBlock .. }`): that error comes first, the record second as its wrapper (the
        # round trip's rule).
        assert first.role == "payload" and first.score == 100, first.record.slug
        first = result.matches[1]
        assert (first.record.id, first.role) == (record.id, "wrapper")
    if compile_pattern(record.messagePattern).literal_chars == 0:  # a record for an exception class as such
        assert first.method == "class" and first.score >= DEFAULT_THRESHOLD
        return
    # A dozen literal characters keep a wording specific; the parser's own `expected ':'` is shorter, and stays
    # specific by its class (the parser-versus-runtime rule keeps a parser record off every runtime error).
    least = 8 if record.errorClass in PARSER_CLASSES else 12
    assert compile_pattern(record.messagePattern).literal_chars >= least
    assert (first.score, first.method) == (100, "regex")
    own = compile_pattern(record.messagePattern).literal_chars
    for other in result.matches[1:]:
        if other.record.id == record.id:
            continue
        # A wrapper around the record's message (`assertion ... failed: {args}` around burn's own
        # `Shape ... is invalid`) is shown as the wrapper, after it: not a rival.
        if other.method == "regex" and other.score == 100 and other.role != "wrapper" and not told_apart(record, other):
            assert compile_pattern(other.record.messagePattern).literal_chars < own, other.record.slug
