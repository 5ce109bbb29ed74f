"""Special files never hang or flood a run: every file leafexplain opens is checked once open (a regular file,
within its bound, never blocking on a FIFO) in the index, the records folders, `import` and `verify`; loops and
unreadable folders are warned about and skipped; an index that fails to parse in any way is rebuilt."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from leafexplain.records import open_catalog
from leafexplain.records.files import iter_record_files, record_paths, scan_files
from leafexplain.records.index import index_path
from leafexplain.records.index.build import build_rows
from leafexplain.records.index.format import FIELD_SEP, PLACE_FIELDS, encode_parts
from tests.conftest import LEAF, SEED_ID, Isolated, leafexplain_command, make_record, write_records

GRAD = "RuntimeError: element 0 of tensors does not require grad and does not have a grad_fn"


def seed_answer(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)["events"][0]["matches"][0]["id"]


def the_index(user: Isolated) -> Path:
    assert user("list").returncode == 0  # builds it
    return Path(index_path(record_paths(environ=user.environ), user.environ))


# --- the index ---------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["/dev/zero", "/dev/urandom", "fifo", "folder", "symlink to a file"])
def test_whatever_stands_where_the_index_goes_is_never_read_as_one(tmp_path: Path, kind: str) -> None:
    user = Isolated(tmp_path)
    path = the_index(user)
    good = path.read_bytes()
    path.unlink()
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "folder":
        path.mkdir()
    elif kind == "symlink to a file":
        (tmp_path / "elsewhere").write_bytes(good)
        path.symlink_to(tmp_path / "elsewhere")
    else:
        path.symlink_to(kind)
    result = user.process("--format", "json", "--file", str(LEAF))  # a process: a hang ends at its timeout
    assert seed_answer(result) == SEED_ID
    lines = result.stderr.splitlines()
    assert 1 <= len(lines) <= 2 and all(line.startswith("leafexplain: ") for line in lines), result.stderr
    assert "damaged" in lines[0]
    if kind != "folder":  # replaced by a good index, the symlink itself and not what it points to
        assert path.is_file() and not path.is_symlink()
        assert user.process("--format", "json", "--file", str(LEAF)).stderr == ""
    if kind == "symlink to a file":
        assert (tmp_path / "elsewhere").read_bytes() == good


STRIDE = len(PLACE_FIELDS)  # numbers per row in the places array


def crafted(user: Isolated, change: str) -> bytes:
    """The index of the default records, built again with one thing changed, under a valid checksum."""
    files, _, _ = scan_files(record_paths(environ=user.environ))
    meta, rows, words, places, distinct = build_rows(files)
    seed = next(n for n, row in enumerate(rows) if row.startswith(SEED_ID))
    fields = rows[seed].split(FIELD_SEP)
    if change == "a field missing":
        rows[seed] = FIELD_SEP.join(fields[:-1])
    elif change == "a field too many":
        rows[seed] += FIELD_SEP
    elif change == "the id changed":
        rows[seed] = FIELD_SEP.join(["ffffffffffffffff", *fields[1:]])
    elif change == "the id not text":
        rows[seed] = FIELD_SEP.join(["\udcff\udcfe" * 8, *fields[1:]])
    elif change == "a file that is not there":
        places[seed * STRIDE] = 99
    elif change == "a negative offset":
        places[seed * STRIDE + 1] = -7
    elif change == "a huge length":
        places[seed * STRIDE + 2] = 10**12
    elif change == "a word naming a row that is not there":
        words.append((0,))  # a member naming a row that is not there
    elif change == "fewer rows than the count":
        rows.pop()
        return b"".join(encode_parts({**meta}, rows, words, places[:-STRIDE], distinct)).replace(b"\x1d", b"", 1)
    return b"".join(encode_parts(meta, rows, words, places, distinct))


CRAFTED = [
    "a field missing",
    "a field too many",
    "the id changed",
    "the id not text",
    "a file that is not there",
    "a negative offset",
    "a huge length",
    "a word naming a row that is not there",
    "fewer rows than the count",
]


@pytest.mark.parametrize("change", CRAFTED)
def test_an_index_with_a_valid_checksum_but_malformed_rows_is_rebuilt(tmp_path: Path, change: str) -> None:
    user = Isolated(tmp_path)
    path = the_index(user)
    data = crafted(user, change) if change != "the id not text" else None
    if data is None:  # bytes that are not UTF-8 where the id is
        good = crafted(user, "the id changed")
        data = good.replace(b"ffffffffffffffff", b"\xff\xfe" * 8)
        from leafexplain.records.index.format import MAGIC, sealed

        data = sealed(data[len(MAGIC) + 4 :])
    path.write_bytes(data)
    for args in (("--format", "json", "--file", str(LEAF)), ("show", SEED_ID), ("list",), ("search", "leaf")):
        result = user(*args)
        assert result.returncode == 0, (args, result.stderr)
        assert all(line.startswith("leafexplain: ") and "damaged" in line for line in result.stderr.splitlines())
    assert seed_answer(user("--format", "json", "--file", str(LEAF))) == SEED_ID
    assert user("--format", "json", "--file", str(LEAF)).stderr == "", "rebuilt: the next run says nothing"


# --- records folders -------------------------------------------------------------------------


def hostile_folder(root: Path) -> Path:
    """Records beside a FIFO, endless devices, a loop of symlinks, and a folder that links to itself."""
    write_records(root, "good.json", make_record())
    os.mkfifo(root / "fifo.json")
    (root / "zero.jsonl").symlink_to("/dev/zero")
    (root / "random.json").symlink_to("/dev/urandom")
    (root / "loop.json").symlink_to(root / "loop.json")
    (root / "sub").mkdir()
    (root / "sub" / "again").symlink_to(root)
    return root


def test_records_folders_with_fifos_devices_and_loops_load_the_rest(cli, tmp_path: Path) -> None:
    folder = hostile_folder(tmp_path / "recs")
    result = cli.process("list", "--records", str(folder), "--no-bundled")
    assert result.returncode == 0 and "00000000000000aa" in result.stdout
    problems = result.stderr
    for name in ("fifo.json", "zero.jsonl", "random.json", "loop.json"):
        assert name in problems, problems
    assert len(problems.splitlines()) == 4


def test_a_symlink_loop_for_the_records_folder_is_one_warning_and_demo_still_runs(cli) -> None:
    cli.records.parent.mkdir(parents=True)
    cli.records.symlink_to(cli.records.parent / "other")
    (cli.records.parent / "other").symlink_to(cli.records)
    for args in (("demo", "--format", "plain"), ("list",), ("--format", "json", GRAD)):
        result = cli(*args)
        assert result.returncode == 0, result.stderr
        assert result.stderr.splitlines() == [
            f"leafexplain: skipped record: {cli.records}: cannot read: Too many levels of symbolic links"
        ]
    named = cli("list", "--records", str(cli.records))
    assert named.returncode == 0 and "Too many levels of symbolic links" in named.stderr


def test_an_unreadable_folder_is_a_problem_and_skipped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "recs"
    write_records(root / "open", "a.json", make_record())
    write_records(root / "closed", "b.json", make_record("00000000000000bb"))
    scandir = os.scandir

    def refuse(path: object = ".") -> object:  # as root, permissions do not stop a read: refuse it here
        if str(path).endswith("closed"):
            raise PermissionError(13, "Permission denied", str(path))
        return scandir(path)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "scandir", refuse)
    problems: list = []
    assert [p.name for p in iter_record_files(root, problems)] == ["a.json"]
    assert [str(p) for p in problems] == [f"{root / 'closed'}: cannot read this folder: Permission denied"]


def test_import_from_a_folder_with_fifos_devices_and_loops(cli, tmp_path: Path) -> None:
    folder = hostile_folder(tmp_path / "incoming")
    result = cli.process("import", str(folder))
    assert result.returncode == 1, result.stderr  # problems were met; the good record is imported
    assert "imported  00000000000000aa" in result.stdout
    for name in ("fifo.json", "zero.jsonl", "random.json", "loop.json"):
        assert name in result.stderr
    assert all(line.startswith("leafexplain: ") for line in result.stderr.splitlines())


def test_records_read_by_the_index_are_checked_once_open(tmp_path: Path) -> None:
    """A file replaced by a FIFO between the scan and the read is refused, not waited on."""
    folder = tmp_path / "recs"
    write_records(folder, "a.json", make_record())
    files, _, _ = scan_files([(folder, True)])
    (folder / "a.json").unlink()
    os.mkfifo(folder / "a.json")
    meta, rows, _, _, _ = build_rows(files)
    assert rows == [] and [p[1] for p in meta["problems"]] == ["cannot read: not a regular file"]  # type: ignore[index]
    catalog = open_catalog([str(folder)], bundled=False, configured=False, use_cache=False)
    assert len(catalog) == 0 and "not a regular file" in str(catalog.problems[0])


# --- verify ------------------------------------------------------------------------------------------


def test_verify_stays_inside_the_source_and_reads_bounded(cli, tmp_path: Path) -> None:
    source = tmp_path / "src"
    (source / "lib").mkdir(parents=True)
    (source / "lib" / "ok.rs").write_text('panic!("widget frobnication failed badly");\n')
    (tmp_path / "outside.rs").write_text('panic!("widget frobnication failed badly");\n')
    (source / "lib" / "link.rs").symlink_to(tmp_path / "outside.rs")
    with (source / "lib" / "huge.rs").open("wb") as handle:
        handle.truncate(64 << 20)  # sparse, four times the bound (the red team's was 5 GB: read whole, before)
    os.mkfifo(source / "lib" / "fifo.rs")
    paths = {
        "a": "lib/ok.rs",
        "b": str(tmp_path / "outside.rs"),
        "c": "../outside.rs",
        "d": "lib/../../outside.rs",
        "e": "lib/link.rs",
        "f": "lib/huge.rs",
        "g": "lib/fifo.rs",
    }
    records = [make_record(f"00000000000000{k}{k}", filePath=v, lineNumber=1) for k, v in paths.items()]
    file = write_records(tmp_path / "recs", "r.jsonl", *records)
    result = cli.process("verify", "--source", str(source), "--repo", "acme/widgets", "--format", "json", str(file))
    assert result.returncode == 1, result.stderr
    verdicts = {r["id"][-1]: (r["status"], r["detail"]) for r in json.loads(result.stdout)["results"]}
    assert verdicts["a"] == ("ok", "")
    for key in "bcdefg":
        assert verdicts[key][0] == "missing-file" and "not read" in verdicts[key][1], (key, verdicts[key])
    assert "not a path inside --source" in verdicts["e"][1] and "larger than" in verdicts["f"][1]


def test_verify_reads_git_bounded_too(cli, tmp_path: Path) -> None:
    source = tmp_path / "repo"
    source.mkdir()
    (source / "big.rs").write_bytes(b"\n" * (17 << 20))
    (source / "ok.rs").write_text('panic!("widget frobnication failed badly");\n')

    def git(*args: str) -> str:
        identity = ["-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"]
        return subprocess.run(["git", *identity, *args], cwd=source, capture_output=True, text=True, check=True).stdout

    git("init", "-q")
    git("add", ".")
    git("commit", "-qm", "x")
    sha = git("rev-parse", "HEAD").strip()
    (source / "big.rs").unlink()
    records = [
        make_record("000000000000000a", filePath="ok.rs", lineNumber=1, analyzedSha=sha),
        make_record("000000000000000b", filePath="big.rs", lineNumber=1, analyzedSha=sha),
    ]
    file = write_records(tmp_path / "recs", "r.jsonl", *records)
    result = cli("verify", "--source", str(source), "--repo", "acme/widgets", "--format", "json", str(file))
    verdicts = {r["id"][-1]: (r["status"], r["detail"]) for r in json.loads(result.stdout)["results"]}
    assert verdicts["a"] == ("ok", "") and verdicts["b"][0] == "missing-file" and "larger than" in verdicts["b"][1]


def test_a_fifo_in_the_source_cache_is_not_an_entry(tmp_path: Path) -> None:
    """The cache `leafexplain update` fills is read like the index: checked once open, never followed."""
    from leafexplain.locate.cached import entry_path, places, sources_dir
    from leafexplain.records import load_records

    user = Isolated(tmp_path)
    seed = next(r for r in load_records(environ=user.environ).records if r.id == SEED_ID)
    folder = sources_dir(user.environ)
    folder.mkdir(parents=True)
    for place in places(seed):
        os.mkfifo(entry_path(folder, place))
    result = user.process("--format", "json", "--file", str(LEAF))  # a process: a hang ends at its timeout
    assert seed_answer(result) == SEED_ID


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_a_device_that_never_ends_is_no_input(tmp_path: Path, device: str) -> None:
    if not os.path.exists(device):
        pytest.skip(f"{device} is not here")
    done = subprocess.run(
        [*leafexplain_command(), "--file", device], capture_output=True, env=Isolated(tmp_path).environ, timeout=30
    )
    assert done.returncode == 2 and b"a device, not a file or a pipe" in done.stderr


def test_a_fifo_nobody_writes_to_is_empty_input_and_dev_null_too(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for path in (str(fifo), os.devnull):
        done = subprocess.run(
            [*leafexplain_command(), "--file", path], capture_output=True, env=Isolated(tmp_path).environ, timeout=30
        )
        assert done.returncode == 0 and b"no error found" in done.stderr, path


def test_a_fifo_opened_before_its_writer_is_read_once_it_writes(tmp_path: Path) -> None:
    """`leafexplain --file f & cargo test > f`: the writer may open the FIFO a moment after leafexplain did; what it
    writes is read, not taken for an empty input (the open does not block, the first read waits a moment for it)."""
    import time

    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    proc = subprocess.Popen(
        [*leafexplain_command(), "--file", str(fifo), "--format", "json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=Isolated(tmp_path).environ,
    )
    try:
        deadline = time.monotonic() + 60
        while True:  # once leafexplain has opened its end (ENXIO until then), and a moment later
            try:
                fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
                break
            except OSError:
                assert proc.poll() is None and time.monotonic() < deadline
                time.sleep(0.01)
        time.sleep(0.2)
        os.set_blocking(fd, True)
        with os.fdopen(fd, "wb") as writer:
            writer.write(LEAF.read_bytes())
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err
    assert json.loads(out)["events"][0]["matches"][0]["id"] == SEED_ID


def test_the_roots_folder_is_no_records_folder_and_a_walk_is_bounded(tmp_path: Path, monkeypatch) -> None:
    from leafexplain.records import files

    problems: list = []
    assert list(files.record_file_names(os.sep, problems)) == []
    assert "root is not a records folder" in problems[0].message
    for n in range(5):
        (tmp_path / f"d{n}").mkdir()
        (tmp_path / f"d{n}" / "r.json").write_text("{}")
    monkeypatch.setattr(files, "MAX_FOLDERS", 3)
    problems = []
    assert len(list(files.record_file_names(str(tmp_path), problems))) == 2
    assert "more than 3 folders below it" in problems[0].message


def test_a_file_the_system_makes_up_is_read_to_a_bound(tmp_path: Path) -> None:
    if not os.path.exists("/proc/self/pagemap"):
        pytest.skip("no /proc here")
    done = subprocess.run(
        [*leafexplain_command(), "--file", "/proc/self/pagemap"],
        capture_output=True,
        env=Isolated(tmp_path).environ,
        timeout=60,
    )
    assert done.returncode == 2 and b"only its first 64 MB are read" in done.stderr


def test_stdin_from_a_device_that_never_ends_is_no_input_and_ptmx_is_a_device(tmp_path: Path) -> None:
    env = Isolated(tmp_path).environ
    with open("/dev/zero", "rb") as zero:
        done = subprocess.run([*leafexplain_command()], stdin=zero, capture_output=True, env=env, timeout=30)
    assert done.returncode == 2 and b"cannot read stdin: it is a device" in done.stderr
    if os.path.exists("/dev/ptmx"):
        done = subprocess.run([*leafexplain_command(), "--file", "/dev/ptmx"], capture_output=True, env=env, timeout=30)
        assert done.returncode == 2 and b"a device, not a file or a pipe" in done.stderr
