"""The on-disk record index: same answers as reading every record, rebuilt when files change."""

from __future__ import annotations

import json
import os
from pathlib import Path

from leafexplain.extract import extract_events
from leafexplain.match import Matcher
from leafexplain.models import ErrorEvent
from leafexplain.records import load_records, open_catalog
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
        events += extract_events(path.read_text())
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
    path = index_path(record_paths(environ=environ), environ)
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


def test_completion_lists_follow_the_index(tmp_path: Path) -> None:
    environ = Isolated(tmp_path).environ
    open_catalog(environ=environ)
    ids = (tmp_path / "cache" / "leafexplain" / "complete" / "ids.txt").read_text().split()
    assert SEED_ID in ids and len(ids) == len(set(ids))
    repos = (tmp_path / "cache" / "leafexplain" / "complete" / "repos.txt").read_text().split()
    assert "tracel-ai/burn" in repos
