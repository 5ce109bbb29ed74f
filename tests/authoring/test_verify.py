"""`verify` against real git history and plain source trees; `new` scaffolds records that validate."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from leafexplain.locate.message import search_fragment

LIB = """fn check(a: usize, b: usize) {
    if a != b {
        panic!(
            "widget count {} does not match \\
             the gadget count {}", a, b
        );
    }
}
"""


def git(repo: Path, *args: str) -> str:
    env = {
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@t",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@t",
        "PATH": "/usr/bin:/bin",
    }
    return subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True, check=True, env=env).stdout.strip()


@pytest.fixture
def repo(tmp_path: Path) -> tuple[Path, str]:
    root = tmp_path / "widgets"
    (root / "src").mkdir(parents=True)
    (root / "src" / "lib.rs").write_text(LIB)
    git(root, "init", "-q")
    git(root, "add", ".")
    git(root, "commit", "-qm", "first")
    sha = git(root, "rev-parse", "HEAD")
    # Later history moves the message down two lines: verify must read the file at the record's commit.
    (root / "src" / "lib.rs").write_text("// a\n// b\n" + LIB)
    git(root, "commit", "-qam", "second")
    return root, sha


def new_args(sha: str, line: int, message: str, out: Path) -> list[str]:
    """`leafexplain new` for the widget message raised in src/lib.rs."""
    pattern = "widget count {} does not match the gadget count {}"
    facts = {"--repo": "acme/widgets", "--commit": sha, "--path": "src/lib.rs", "--line": str(line)}
    return [
        "new",
        *(w for pair in facts.items() for w in pair),
        "--message",
        message,
        "--pattern",
        pattern,
        "--out",
        str(out),
    ]


def new_record(
    cli, tmp_path: Path, sha: str, line: int, message: str = "widget count 3 does not match the gadget count 4"
) -> Path:
    out = tmp_path / "records"
    result = cli(*new_args(sha, line, message, out))
    assert result.returncode == 0, result.stderr
    return out


def test_new_writes_a_valid_record(cli, tmp_path: Path, repo) -> None:
    _, sha = repo
    out = new_record(cli, tmp_path, sha, 4)
    path = out / "acme" / "widgets" / "widget-count-3-does-not-match-the-gadget-count-4.json"
    record = json.loads(path.read_text())["record"]
    assert record["githubUrl"] == f"https://github.com/acme/widgets/blob/{sha}/src/lib.rs#L1-L24"
    assert len(record["id"]) == 16 and record["errorType"] == "panic"
    assert cli("validate", str(out)).returncode == 0
    again = cli(*new_args(sha, 4, "other text here", out))
    assert again.returncode == 2 and "exists already" in again.stderr
    assert (
        cli(
            "new", "--repo", "acme/widgets", "--commit", "abc", "--path", "a", "--line", "1", "--message", "m m m m"
        ).returncode
        == 2
    )


def test_verify_ok_moved_and_missing_commit(cli, tmp_path: Path, repo) -> None:
    root, sha = repo
    out = new_record(cli, tmp_path, sha, 4)
    ok = cli("verify", "--source", str(root), str(out))
    assert ok.returncode == 0 and ok.stdout.startswith("ok "), ok.stdout
    moved_dir = new_record(cli, tmp_path / "m", sha, 9)
    moved = cli("verify", "--source", str(root), str(moved_dir), "--format", "json")
    result = json.loads(moved.stdout)["results"][0]
    assert moved.returncode == 1 and (result["status"], result["found_line"]) == ("moved", 4)
    ghost = new_record(cli, tmp_path / "g", "f" * 40, 4)
    missing = json.loads(cli("verify", "--source", str(root), str(ghost), "--format", "json").stdout)["results"][0]
    assert missing["status"] == "missing-commit" and missing["found_line"] == 6  # where it stands at HEAD


def test_verify_plain_tree_and_missing_file(cli, tmp_path: Path, repo) -> None:
    _, sha = repo
    tree = tmp_path / "release"
    (tree / "src").mkdir(parents=True)
    (tree / "src" / "lib.rs").write_text(LIB)
    out = new_record(cli, tmp_path, sha, 4)
    assert cli("verify", "--source", str(tree), "--repo", "acme/widgets", str(out)).returncode == 0
    (tree / "src" / "lib.rs").unlink()
    (tree / "README").write_text("x")
    gone = cli("verify", "--source", str(tree), "--repo", "acme/widgets", str(out), "--format", "json")
    assert json.loads(gone.stdout)["results"][0]["status"] == "missing-file"
    assert cli("verify", "--source", str(tmp_path / "nowhere")).returncode == 2


def test_search_fragment_stops_where_sources_split_literals() -> None:
    assert search_fragment("Expecting value: line %d column %d (char %d)") == "Expecting value"
    assert search_fragment("called `Result::unwrap()` on an `Err` value: {error:?}") == "called `Result"
    assert search_fragment("{}: {}") is None
    long = search_fragment("view size is not compatible with input tensor's size and stride (at least one dimension")
    assert long == "view size is not compatible with input"


def test_a_record_for_an_exception_class_is_found_by_its_class(tmp_path) -> None:
    """Its pattern has no literal text; the raise site names the class it raises."""
    from leafexplain.authoring.verify import SourceTree, verify_record
    from leafexplain.records.schema import validate_record
    from tests.conftest import make_record

    (tmp_path / "Objects").mkdir()
    (tmp_path / "Objects" / "dictobject.c").write_text("x\n    _PyErr_SetKeyError(key);\n")
    data = make_record("kk", "'lr'", messagePattern="%R", errorType="exception", errorClass="KeyError")
    record, _ = validate_record({**data, "filePath": "Objects/dictobject.c", "lineNumber": 2}, "x")
    assert verify_record(record, SourceTree(tmp_path)).status == "ok"
