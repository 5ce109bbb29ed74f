"""Compile records are keyed by their error code: the code alone explains a compile error, and compile records
explain compile errors only."""

from __future__ import annotations

import json
from pathlib import Path

from leafexplain import session
from leafexplain.match import CODE, Matcher
from leafexplain.models import ErrorEvent, Frame
from leafexplain.records import load_paths, open_catalog
from tests.conftest import OUTPUTS, Isolated, as_record, make_record

TEST_RECORDS = Path(__file__).parents[1] / "data" / "rustc-records"


def compile_record(code: str, message: str, record_id: str) -> dict:
    return make_record(record_id, message, errorType="compile", errorCode=code, repo="rust-lang/rust")


def compile_error(code: str | None, message: str) -> ErrorEvent:
    where = Frame("src/main.rs", 8, 20)
    return ErrorEvent("rust", "compile", message, location=where, user_frame=where, extractor="rustc", code=code)


RECORDS = [
    as_record(compile_record("E0382", "borrow of moved value: `{}`", "00000000000e0382")),
    as_record(compile_record("E0499", "cannot borrow `{}` as mutable more than once at a time", "00000000000e0499")),
    as_record(make_record("00000000000000aa", "borrow of moved value in the pool")),  # a panic's record
]


def best(matcher: Matcher, event: ErrorEvent) -> tuple[str, float, str] | None:
    found = matcher.match(event).best
    return None if found is None else (found.record.id, found.score, found.method)


def test_the_wording_and_the_code_both_agree() -> None:
    finding = Matcher(RECORDS).match(compile_error("E0382", "borrow of moved value: `v`"))
    [match] = finding.matches
    assert (match.record.id, match.score, match.method) == ("00000000000e0382", 100.0, "regex")
    assert match.reasons == ("wording found", "error code E0382 is the record's")


def test_the_code_alone_is_enough() -> None:
    """Another release's wording of the same error (rustc 1.40 said `use of moved value`)."""
    matcher = Matcher(RECORDS)
    finding = matcher.match(compile_error("E0382", "use of moved value: `v`"))
    [match] = finding.matches
    assert (match.record.id, match.score, match.method, match.confidence) == (
        "00000000000e0382",
        CODE,
        "code",
        "same error code",
    )
    assert best(matcher, compile_error("E0277", "use of moved value: `v`")) is None  # another code: no record


def test_compile_records_explain_compile_errors_only() -> None:
    matcher = Matcher(RECORDS)
    panic = ErrorEvent("rust", "panic", "borrow of moved value: `v`")
    assert best(matcher, panic) is None  # the compile record's wording, in a panic: not the compile record
    pasted = ErrorEvent("unknown", None, "borrow of moved value: `v`", tentative=True)
    assert best(matcher, pasted) is None
    # A panic's record whose words a compile error shares does not explain it, nor does another code's record.
    assert best(matcher, compile_error(None, "borrow of moved value in the pool")) is None
    assert best(matcher, compile_error("E0505", "borrow of moved value: `v`")) is None


def test_a_diagnostic_without_a_code_is_explained_by_the_records_of_none() -> None:
    """`error: linker `link.exe` not found` has no code: its record (errorCode null) explains it by its wording,
    and explains neither a coded error nor a panic with its words."""
    linker = as_record(
        make_record(
            "0000000000linker", "linker `{}` not found", errorType="compile", errorCode=None, repo="rust-lang/rust"
        )
    )
    matcher = Matcher([*RECORDS, linker])
    assert best(matcher, compile_error(None, "linker `link.exe` not found")) == ("0000000000linker", 100.0, "regex")
    assert best(matcher, compile_error("E0463", "linker `link.exe` not found")) is None
    assert best(matcher, ErrorEvent("rust", "panic", "linker `cc` not found")) is None
    # Without a code, no record is a match by code alone: only a wording found counts.
    assert best(matcher, compile_error(None, "could not find native static library `foo`")) is None


def test_the_on_disk_index_finds_a_record_by_its_code(tmp_path: Path) -> None:
    folder = tmp_path / "records"
    folder.mkdir()
    for n, data in enumerate([compile_record("E0382", "borrow of moved value: `{}`", "00000000000e0382")]):
        (folder / f"{n}.json").write_text(json.dumps({"record": data}))
    (folder / "panic.json").write_text(json.dumps({"record": make_record("00000000000000aa", "widget broke")}))
    environ = Isolated(tmp_path).environ
    open_catalog((str(folder),), bundled=False, configured=False, environ=environ)  # builds and saves the index
    catalog = open_catalog((str(folder),), bundled=False, configured=False, environ=environ)
    assert not catalog.saved  # read back from the file
    [row] = catalog.rows_with_code("E0382")
    assert catalog.record_id(row) == "00000000000e0382" and catalog.keyed_by_code(row)
    assert catalog.rows_with_code("E0308") == () and not catalog.keyed_by_code(1 - row)
    assert best(Matcher(catalog), compile_error("E0382", "use of moved value: `v`"))[2] == "code"


def test_a_real_cargo_build_is_explained_by_the_records_of_its_codes() -> None:
    """tests/data/rustc-records: E0382 and E0308 (the bundled ones are records/rust-lang/rust/e0*.json)."""
    matcher = Matcher(load_paths([str(TEST_RECORDS)]).records)
    for name, codes in (("cargo-build-borrows.txt", ["E0382", None]), ("cargo-build-types.txt", [None, "E0308", None])):
        report = session.explain((OUTPUTS / "rust" / name).read_text(), matcher, pasted=False)
        explained = [f.best.record.errorCode if f.best else None for f in report.findings]
        assert explained == codes, name
        assert [f.event.code for f in report.findings if f.best] == [c for c in codes if c]
