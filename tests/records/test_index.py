"""The on-disk record index: same answers as reading every record, rebuilt when files change."""

from __future__ import annotations

import json
import os
from pathlib import Path

import leafexplain.records.index.columns as index_columns
from leafexplain.extract import events_in, finish
from leafexplain.match import Matcher
from leafexplain.models import ErrorEvent
from leafexplain.records import files, load_records, open_catalog
from leafexplain.records.catalog import catalog_from_records
from leafexplain.records.files import record_paths
from leafexplain.records.index import index_path
from tests.conftest import LEAF, OUTPUTS, SEED_ID, Isolated, make_record


def sample_events() -> list[ErrorEvent]:
    """Every record's own message, drifted wordings, unknown errors, and real outputs."""
    records = load_records(configured=False).records
    events = [ErrorEvent(language=r.language, error_type=r.errorClass, message=r.errorMessage) for r in records]
    events += [
        ErrorEvent(language="rust", error_type="panic", message=m)
        for m in ("RefCell already borrowed", "RefCell already mutably borrowed", "tenant quota exceeded: 1001 > 1000")
    ]
    for path in sorted(OUTPUTS.rglob("*.txt")):
        events += finish(events_in(path.read_text()))
    return events


def answers(matcher: Matcher, events: list[ErrorEvent]) -> list[list[tuple[str, float, str]]]:
    out = []
    for event in events:
        result = matcher.match(event, threshold=50)
        out.append([(c.record.id, c.score, c.method) for c in (*result.matches, *result.near)])
    return out


def test_index_gives_the_same_matches_as_a_full_scan(tmp_path: Path) -> None:
    environ = Isolated(tmp_path).environ
    open_catalog(environ=environ)  # builds and saves the index
    from_disk = open_catalog(environ=environ)  # reads it back
    in_memory = catalog_from_records(load_records(environ=environ).records)
    events = sample_events()
    assert len(events) > 300
    assert answers(Matcher(from_disk), events) == answers(Matcher(in_memory), events)
    assert [from_disk.record(i) for i in range(len(from_disk))] == in_memory.all_records()


def write_record(path: Path, record_id: str, message: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"record": make_record(record_id, message)}))


def test_changed_added_and_removed_files_rebuild_the_index(tmp_path: Path) -> None:
    folder = tmp_path / "records"
    write_record(folder / "a.json", "0a", "widget alpha failed to start")
    environ = Isolated(tmp_path).environ
    builds: list[int] = []

    def catalog():
        return open_catalog(
            (str(folder),),
            bundled=False,
            configured=False,
            environ=environ,
            progress=lambda d, t: builds.append(d) if d == t else None,
        )

    assert list(catalog().ids) == ["0a"] and len(builds) == 1
    assert list(catalog().ids) == ["0a"] and len(builds) == 1, "unchanged files: the index is reused"
    write_record(folder / "a.json", "0a", "widget alpha refused to start at all")
    os.utime(folder / "a.json", ns=(1, 1))  # a new time, whatever the clock's resolution
    changed = catalog()
    assert changed.record(0).errorMessage == "widget alpha refused to start at all" and len(builds) == 2
    write_record(folder / "b.json", "0b", "widget beta failed to stop")
    assert list(catalog().ids) == ["0a", "0b"] and len(builds) == 3
    (folder / "a.json").unlink()
    assert list(catalog().ids) == ["0b"] and len(builds) == 4


def test_a_damaged_index_is_rebuilt(tmp_path: Path) -> None:
    environ = Isolated(tmp_path).environ
    count = len(open_catalog(environ=environ))
    path = Path(index_path(record_paths(environ=environ), environ))
    path.write_bytes(path.read_bytes()[:1000])
    assert len(open_catalog(environ=environ)) == count
    path.write_bytes(b"not an index at all")
    assert len(open_catalog(environ=environ)) == count


def test_unwritable_cache_still_works_with_one_warning(cli, tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the cache folder should be")
    result = cli("--format", "json", "--file", str(LEAF), extra_env={"XDG_CACHE_HOME": str(blocker)})
    assert result.returncode == 0
    assert json.loads(result.stdout)["events"][0]["matches"][0]["id"] == SEED_ID
    warnings = [line for line in result.stderr.splitlines() if "record index" in line]
    assert len(warnings) == 1, result.stderr


def test_opening_the_records_writes_no_completion_list(tmp_path: Path) -> None:
    """The lists shell completion reads are written when completion asks (`__complete`), not as a side effect."""
    environ = Isolated(tmp_path).environ
    open_catalog(environ=environ)
    assert not (tmp_path / "cache" / "leafexplain" / "complete").exists()


def test_a_sealed_folder_is_checked_by_its_seal_and_its_own_files_by_theirs(tmp_path: Path, monkeypatch) -> None:
    """The bundled records of an installed wheel are sealed: one stat of their folder stands for every file."""
    sealed, loose = tmp_path / "site" / "_records", tmp_path / "mine"
    write_record(sealed / "acme" / "a.json", "0a", "widget alpha failed to start")
    os.mkfifo(sealed / "acme" / "pipe.json")  # a problem found by the sealed folder's scan: reported every run
    write_record(loose / "b.json", "0b", "widget beta failed to stop")
    monkeypatch.setattr(files, "sealed_records_dir", lambda: str(sealed))
    environ = Isolated(tmp_path).environ
    builds: list[int] = []
    scanned: list[str] = []
    real_names = files.record_file_names
    monkeypatch.setattr(
        files, "record_file_names", lambda root, problems=None: scanned.append(str(root)) or real_names(root, problems)
    )

    def catalog():
        scanned.clear()
        return open_catalog(
            (str(sealed), str(loose)),
            bundled=False,
            configured=False,
            environ=environ,
            progress=lambda d, t: builds.append(d) if d == t else None,
        )

    first = catalog()
    assert list(first.ids) == ["0a", "0b"] and len(builds) == 1
    # A shipped record read as the bytes the build checked is not shape-checked again; a user's record always is.
    checks: list[bool] = []
    real_validate = index_columns.validate_record
    monkeypatch.setattr(
        index_columns,
        "validate_record",
        lambda *a, checked=False: checks.append(checked) or real_validate(*a, checked=checked),
    )
    assert [r.id for r in (first.record(0), first.record(1))] == ["0a", "0b"] and checks == [True, False]
    monkeypatch.setattr(index_columns, "validate_record", real_validate)
    assert [p.message for p in first.problems] == ["not a regular file"]
    again = catalog()
    assert list(again.ids) == ["0a", "0b"] and len(builds) == 1, "the seal holds: the index is reused"
    assert scanned == [str(loose)], "only the loose folder is walked"
    assert [p.message for p in again.problems] == ["not a regular file"]
    # An edit inside the sealed folder (no install does that) is still found when the record is read.
    write_record(sealed / "acme" / "a.json", "0a", "widget alpha refused to start at all")
    assert catalog().record(0).errorMessage == "widget alpha refused to start at all"
    # Loose files are checked one by one, as ever.
    write_record(loose / "c.json", "0c", "widget gamma failed to pause")
    assert list(catalog().ids) == ["0a", "0b", "0c"] and len(builds) == 2
    # A new install replaces the folder: a new seal, a new index.
    for path in sorted(sealed.rglob("*"), reverse=True):
        path.rmdir() if path.is_dir() else path.unlink()
    write_record(sealed / "acme" / "d.json", "0d", "widget delta failed to resume")
    os.utime(sealed, ns=(1, 1))  # a new time, whatever the clock's resolution
    assert list(catalog().ids) == ["0d", "0b", "0c"] and len(builds) == 3
