"""The record commands redact the paths they were given (issue 28, round 3, item 12): `validate` as `import` does.

The token is made up and built from pieces at run time, so that no scanner takes this file for a leak.
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import Isolated, make_record

TOKEN_BODY = "x9Y8w7V6u5" * 4
TOKEN = "ghp_" + TOKEN_BODY
SHOWN = "ghp_…[redacted]"


def folder_with_records(tmp_path: Path, *, broken: bool) -> Path:
    folder = tmp_path / TOKEN
    folder.mkdir()
    (folder / "good.json").write_text(json.dumps(make_record()), encoding="utf-8")
    if broken:
        (folder / "bad.json").write_text(json.dumps({"id": "x"}), encoding="utf-8")
    return folder


def test_validate_shows_the_paths_it_was_given_redacted(cli: Isolated, tmp_path: Path) -> None:
    folder = folder_with_records(tmp_path, broken=True)
    text = cli("validate", str(folder))
    assert text.returncode == 1
    assert TOKEN_BODY not in text.stdout and TOKEN_BODY not in text.stderr
    assert f"{SHOWN}/bad.json: field 'repo'" in text.stdout
    document = cli("validate", "--format", "json", str(folder))
    assert TOKEN_BODY not in document.stdout
    found = json.loads(document.stdout)
    assert found["sources"] == [str(folder).replace(TOKEN, SHOWN)]
    assert {p["path"] for p in found["problems"]} == {str(folder / "bad.json").replace(TOKEN, SHOWN)}


def test_import_into_a_records_folder_named_after_a_token_redacts_the_target(tmp_path: Path) -> None:
    """Where `import` writes is the user's records folder: a data folder whose path holds a token shape."""
    data = tmp_path / TOKEN
    cli = Isolated(tmp_path, XDG_DATA_HOME=str(data))
    source = tmp_path / "incoming"
    source.mkdir()
    (source / "good.json").write_text(json.dumps(make_record()), encoding="utf-8")
    done = cli("import", str(source))
    assert done.returncode == 0, done.stderr
    assert TOKEN_BODY not in done.stdout and SHOWN in done.stdout
