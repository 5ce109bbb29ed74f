"""Loading records: file formats, sources and their order, validation problems, bad files."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from leafexplain.records import load_paths, load_records
from leafexplain.records.schema import FIELDS, SEED_FIELDS, validate_record
from tests.conftest import SEED_FILE, SEED_ID, seed_record
from tests.conftest import make_record as make

# The seed record as it was given (../shared/seed/000_435334aa22e56eac.txt), pinned by its checksum:
# the check holds in any checkout, with or without the shared folder beside it.
SEED_SHA256 = "b8fdf40ef92e521d61917d5647e7992b84b2cdfacf9463bb3ef9ab603aa92efd"
SHARED_SEED = Path(__file__).resolve().parents[3] / "shared" / "seed" / "000_435334aa22e56eac.txt"


def seed_as_given() -> bytes:
    """The bundled seed without our one addition (its message history), in the original's layout."""
    data = json.loads(SEED_FILE.read_text())
    assert list(data["record"])[-1] == "messageVariants", "the history is the seed's only addition, at its end"
    del data["record"]["messageVariants"]
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode()


def test_seed_is_bundled_byte_for_byte_but_for_its_message_history() -> None:
    assert hashlib.sha256(seed_as_given()).hexdigest() == SEED_SHA256
    if SHARED_SEED.exists():  # where the original is at hand, compare with it too
        assert seed_as_given() == SHARED_SEED.read_bytes()
    assert seed_record()["id"] == SEED_ID


def test_schema_has_every_field_of_the_seed() -> None:
    assert list(seed_record())[:-1] == list(SEED_FIELDS)
    assert list(FIELDS) == [*SEED_FIELDS, "messageVariants"]


def test_loads_wrapped_bare_txt_and_jsonl(tmp_path: Path) -> None:
    (tmp_path / "wrapped.json").write_text(json.dumps({"record": make("01"), "datasetVersion": "2026-01-01"}))
    (tmp_path / "bare.json").write_text(json.dumps(make("02", "second widget message here")))
    (tmp_path / "seed.txt").write_text(json.dumps({"record": make("03", "third widget message here")}))
    sub = tmp_path / "deeper" / "still"
    sub.mkdir(parents=True)
    lines = [
        json.dumps({"record": make("04", "fourth widget message")}),
        "",
        json.dumps(make("05", "fifth widget message")),
    ]
    (sub / "many.jsonl").write_text("\n".join(lines) + "\n")
    (tmp_path / "notes.md").write_text("not a record")
    loaded = load_paths([str(tmp_path)])
    assert sorted(r.id for r in loaded.records) == ["01", "02", "03", "04", "05"]
    assert loaded.problems == ()
    wrapped = next(r for r in loaded.records if r.id == "01")
    assert wrapped.datasetVersion == "2026-01-01"


def test_broken_file_bad_line_and_invalid_record_are_reported_and_skipped(tmp_path: Path) -> None:
    (tmp_path / "good.json").write_text(json.dumps(make("01")))
    (tmp_path / "broken.json").write_text('{"record": {"id": ')
    (tmp_path / "lines.jsonl").write_text(
        json.dumps(make("02", "another widget message"))
        + "\n{oops\n"
        + json.dumps(make("03", "", lineNumber="ten"))
        + "\n"
    )
    loaded = load_paths([str(tmp_path)])
    assert sorted(r.id for r in loaded.records) == ["01", "02"]
    text = [str(p) for p in loaded.problems]
    assert any("broken.json" in t and "not valid JSON" in t for t in text)
    assert any("lines.jsonl:2" in t for t in text)
    bad = [p for p in loaded.problems if p.line == 3]
    assert {p.field for p in bad} == {"errorMessage", "messagePattern", "lineNumber"}


def test_field_checks() -> None:
    def fields_of(data: dict) -> set[str | None]:
        record, problems = validate_record(data, "x.json")
        assert record is None
        return {p.field for p in problems}

    assert fields_of(make(repo="not-a-repo")) == {"repo"}
    assert fields_of(make(githubUrl="javascript:alert(1)")) == {"githubUrl"}
    assert fields_of(make(githubUrl="https://user:pw@github.com/a/b")) == {"githubUrl"}
    assert fields_of(make(schemaVersion=3)) == {"schemaVersion"}
    assert fields_of(make(messagePattern="{}: {}")) == {"messagePattern"}
    assert fields_of(make(tags="rust")) == {"tags"}
    assert fields_of(make(lineNumber=True)) == {"lineNumber"}
    assert fields_of({"repo": "a/b"}) == {"id", "errorMessage", "messagePattern"}
    record, problems = validate_record(make(slug=None), "x.json")
    assert record is not None and record.slug == "widget-frobnication-failed-badly" and problems == []


def test_source_order_later_ids_replace_earlier(tmp_path: Path) -> None:
    data_home = tmp_path / "data"
    user = data_home / "leafexplain" / "records"
    user.mkdir(parents=True)
    (user / "seed-override.json").write_text(json.dumps(seed_record() | {"documentation": "from the user folder"}))
    env_dir = tmp_path / "env"
    env_dir.mkdir()
    (env_dir / "a.json").write_text(json.dumps(make("0e", "from the environment variable")))
    cli_dir = tmp_path / "cli"
    cli_dir.mkdir()
    (cli_dir / "b.json").write_text(json.dumps(make("0e", "from the command line option")))
    environ = {"XDG_DATA_HOME": str(data_home), "LEAFEXPLAIN_RECORDS": str(env_dir)}
    loaded = load_records([str(cli_dir)], environ=environ)
    by_id = {r.id: r for r in loaded.records}
    assert by_id[SEED_ID].documentation == "from the user folder"
    assert by_id["0e"].errorMessage == "from the command line option"
    assert len(loaded.records) > 50  # the bundled ones are there too
    alone = load_records([str(cli_dir)], bundled=False, environ=environ)
    assert SEED_ID in {r.id for r in alone.records}  # from the user folder only
    assert len(alone.records) == 2


def test_missing_named_source_is_a_problem(tmp_path: Path) -> None:
    loaded = load_records([str(tmp_path / "nope")], bundled=False, environ={})
    assert loaded.records == ()
    assert "no such file or folder" in str(loaded.problems[0])


def test_duplicate_id_in_one_source_is_reported(tmp_path: Path) -> None:
    (tmp_path / "a.json").write_text(json.dumps(make("01", "first widget message")))
    (tmp_path / "b.json").write_text(json.dumps(make("01", "second widget message")))
    loaded = load_paths([str(tmp_path)])
    assert [r.errorMessage for r in loaded.records] == ["second widget message"]
    assert any("duplicate id" in str(p) for p in loaded.problems)


def test_deeply_nested_json_is_a_clear_problem(tmp_path: Path) -> None:
    (tmp_path / "deep.json").write_text("[" * 100_000 + "]" * 100_000)
    (tmp_path / "ok.json").write_text(json.dumps(make("01")))
    loaded = load_paths([str(tmp_path)])
    assert [r.id for r in loaded.records] == ["01"]
    assert any("deep.json" in str(p) for p in loaded.problems)


def test_message_variants_are_checked_entry_by_entry() -> None:
    """Our optional extension: each entry's keys and types, a full commit, an https link; a record
    without it is as valid as before."""
    good = {"messagePattern": "widget {} frobnication failed", "versions": "widgets 1.x", "recordCommitMissing": True}
    record, problems = validate_record(make("v1", messageVariants=[good]), "x")
    assert problems == [] and record.messageVariants[0].versions == "widgets 1.x"
    assert record.messageVariants[0].recordCommitMissing is True
    bad = [
        {"messagePattern": "x"},  # no versions, too few literal characters
        {"messagePattern": "widget broke badly", "versions": "1.x", "commit": "abc123"},
        {"messagePattern": "widget broke badly", "versions": "1.x", "githubUrl": "http://example.com/x"},
        {"messagePattern": "widget broke badly", "versions": "1.x", "colour": "red"},
        {"messagePattern": "widget broke badly", "versions": "1.x", "recordCommitMissing": "yes"},
    ]
    _, problems = validate_record(make("v2", messageVariants=bad), "x")
    fields = {p.field for p in problems}
    assert {
        "messageVariants[0].versions",
        "messageVariants[1].commit",
        "messageVariants[2].githubUrl",
        "messageVariants[3].colour",
        "messageVariants[4].recordCommitMissing",
    } <= fields
    _, problems = validate_record(make("v3", messageVariants="not a list"), "x")
    assert problems and problems[0].field == "messageVariants"
