"""Faults around a run: a reader that goes away, signals, a read-only or full cache, a damaged index,
several processes building the index at once. Quiet, clean, one warning at most, right answers."""

from __future__ import annotations

import contextlib
import errno
import json
import marshal
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO

import pytest

import leafexplain.records.index.read as index_read
from leafexplain.records import open_catalog
from leafexplain.records.files import record_paths
from leafexplain.records.index import index_path
from leafexplain.records.index.format import BLOCK, MAGIC, IndexDamaged, sealed
from leafexplain.records.index.read import memory_source
from tests.conftest import LEAF, SEED_ID, Isolated, leafexplain_command, make_record

BUNDLED_COUNT = len(open_catalog(configured=False, use_cache=False))


def environ(tmp: Path) -> dict[str, str]:
    return Isolated(tmp).environ


def seed_answer(result: subprocess.CompletedProcess[str]) -> str:
    return json.loads(result.stdout)["events"][0]["matches"][0]["id"]


def write_many_records(folder: Path, count: int) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    records = (make_record(f"{n:016x}", f"widget {n} broke", messagePattern="widget {} broke") for n in range(count))
    (folder / "many.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))


def temporaries(cache: Path) -> list[Path]:
    return [p for p in cache.rglob("*") if p.name.startswith(".") and p.name.endswith(".tmp")]


# --- the reader goes away, signals ------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [("--format", "plain"), ("--format", "rich", "--color", "always"), ("--format", "json"), ("list",)],
)
def test_a_reader_that_goes_away_ends_the_run_quietly(tmp_path: Path, args: tuple[str, ...]) -> None:
    """`| head`: far more output than a pipe holds, the reader gone after one line: exit 141."""
    distinct = "".join(
        f'Traceback (most recent call last):\n  File "t{n}.py", line 1, in <module>\n'
        f"RuntimeError: element 0 of tensors does not require grad and does not have a grad_fn {n}\n"
        for n in range(400)
    )
    (tmp_path / "in.txt").write_text(distinct)
    write_many_records(tmp_path / "data" / "leafexplain" / "records", 3000)  # for `list`
    where = ("--file", str(tmp_path / "in.txt")) if args[0] != "list" else ()
    command = " ".join([*leafexplain_command(), *args, *where])
    done = subprocess.run(
        ["bash", "-c", f'{command} | head -n 1; echo "status ${{PIPESTATUS[0]}}" >&2'],
        capture_output=True,
        text=True,
        env=Isolated(tmp_path, PYTHONUNBUFFERED="1").environ,  # where Python's own stdout would drop the rest unsaid
        timeout=120,
    )
    assert len(done.stdout.splitlines()) == 1
    assert done.stderr == "status 141\n", done.stderr


@pytest.mark.parametrize("unbuffered", ["", "1"])
def test_everything_written_is_out_before_the_process_ends(tmp_path: Path, unbuffered: str) -> None:
    """The console entry ends the process without the interpreter's teardown (cli.console): what the run
    wrote, far more than a pipe holds, is all out first, buffered or not."""
    distinct = "".join(
        f'Traceback (most recent call last):\n  File "t{n}.py", line 1, in <module>\n'
        f"RuntimeError: element 0 of tensors does not require grad and does not have a grad_fn {n}\n"
        for n in range(300)
    )
    environ = Isolated(tmp_path, PYTHONUNBUFFERED=unbuffered).environ
    for entry in (leafexplain_command(), [sys.executable, "-m", "leafexplain"]):
        done = subprocess.run(
            [*entry, "--format", "json"], input=distinct, capture_output=True, text=True, env=environ, timeout=120
        )
        assert done.returncode == 0, done.stderr
        assert len(done.stdout) > 1 << 16 and len(json.loads(done.stdout)["events"]) == 300
    version = subprocess.run([*leafexplain_command(), "--version"], capture_output=True, text=True, env=environ)
    assert version.stdout.startswith("leafexplain ") and version.returncode == 0


def open_writer(fifo: Path, proc: subprocess.Popen[bytes]) -> BinaryIO:
    """The FIFO's writing end, once leafexplain has opened the reading end (never hangs if it died)."""
    deadline = time.monotonic() + 60
    while True:
        try:
            fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
        except OSError as exc:  # ENXIO: no reader yet
            assert exc.errno == errno.ENXIO and proc.poll() is None and time.monotonic() < deadline, proc.poll()
            time.sleep(0.02)
            continue
        os.set_blocking(fd, True)
        return os.fdopen(fd, "wb")


@contextlib.contextmanager
def blocked_on_a_fifo(tmp_path: Path, *args: str, ended: bool = False) -> Iterator[subprocess.Popen[bytes]]:
    """leafexplain reading a FIFO we hold open: past start-up (the open of the FIFO is the sign). `ended`: the
    FIFO closed after the panic, so that leafexplain is past reading, loading the records the panic asks for."""
    fifo = tmp_path / "input.fifo"
    os.mkfifo(fifo)
    proc = subprocess.Popen(
        [*leafexplain_command(), "--file", str(fifo), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=Isolated(tmp_path).environ,
    )
    try:
        with open_writer(fifo, proc) as writer:
            writer.write(b"thread 'main' panicked at src/main.rs:1:5:\n")
            writer.flush()
            if not ended:
                yield proc
        if ended:
            yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


@pytest.mark.parametrize(("sig", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_interrupt_and_terminate_end_quietly_with_their_codes(tmp_path: Path, sig: int, code: int) -> None:
    with blocked_on_a_fifo(tmp_path) as proc:
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=60)
    assert proc.returncode == code
    assert (out, err) == (b"", b"")


def test_sigpipe_sent_on_its_own_is_ignored_and_the_run_completes(tmp_path: Path) -> None:
    fifo = tmp_path / "input.fifo"
    os.mkfifo(fifo)
    proc = subprocess.Popen(
        [*leafexplain_command(), "--file", str(fifo), "--format", "json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=Isolated(tmp_path).environ,
    )
    try:
        with open_writer(fifo, proc) as writer:
            proc.send_signal(signal.SIGPIPE)
            writer.write(LEAF.read_bytes())
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0 and json.loads(out)["events"][0]["matches"][0]["id"] == SEED_ID and err == b""


def test_terminated_while_building_the_index_leaves_no_temporary_file(tmp_path: Path) -> None:
    write_many_records(tmp_path / "data" / "leafexplain" / "records", 40_000)
    # The records load once the input has ended (they are loaded for its first error): wherever the signal lands,
    # during the build, the write, or after.
    # A run may finish before a late signal (its exit then says the panic was found): that run proves nothing, but
    # leaves no temporary file either; the early signals land during the build.
    ends = []
    for delay in (0.0, 0.1, 0.3):
        with blocked_on_a_fifo(tmp_path, ended=True) as proc:
            time.sleep(delay)
            proc.send_signal(signal.SIGTERM)
            proc.communicate(timeout=60)
        ends.append(proc.returncode)
        assert temporaries(tmp_path / "cache") == []
        (tmp_path / "input.fifo").unlink()
        # An index a run finished before its signal would let the next run load it and end before its signal.
        shutil.rmtree(tmp_path / "cache", ignore_errors=True)
    assert set(ends) <= {143, 1} and ends[0] == 143, ends


# --- the cache folder: read-only, full ---------------------------------------------------------


@contextlib.contextmanager
def tmpfs(where: Path, size: str, *, read_only: bool = False) -> Iterator[Path]:
    """A real small or read-only file system, where this machine lets us mount one."""
    where.mkdir(parents=True, exist_ok=True)
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)], capture_output=True)
    if mounted.returncode != 0:
        pytest.skip("cannot mount a tmpfs here (needs CAP_SYS_ADMIN); the fault-injection tests cover this")
    try:
        if read_only:
            subprocess.run(["mount", "-o", "remount,ro", str(where)], check=True, capture_output=True)
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], capture_output=True)


def index_warnings(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if "record index" in line]


def test_a_full_disk_gives_one_warning_and_the_right_answer(cli, tmp_path: Path) -> None:
    with tmpfs(tmp_path / "full", "24k") as cache:
        result = cli("--format", "json", "--file", str(LEAF), extra_env={"XDG_CACHE_HOME": str(cache)})
        assert result.returncode == 0 and seed_answer(result) == SEED_ID
        warnings = index_warnings(result.stderr)
        assert len(warnings) == 1 and "No space left on device" in warnings[0], result.stderr
        assert temporaries(cache) == []


def test_a_read_only_cache_gives_one_warning_and_the_right_answer(cli, tmp_path: Path) -> None:
    with tmpfs(tmp_path / "ro", "1m", read_only=True) as cache:
        result = cli("--format", "json", "--file", str(LEAF), extra_env={"XDG_CACHE_HOME": str(cache)})
        assert result.returncode == 0 and seed_answer(result) == SEED_ID
        warnings = index_warnings(result.stderr)
        assert len(warnings) == 1 and "Read-only file system" in warnings[0], result.stderr


def test_a_read_only_cache_with_an_index_in_it_is_simply_used(cli, tmp_path: Path) -> None:
    with tmpfs(tmp_path / "ro", "4m") as cache:
        assert cli("list", extra_env={"XDG_CACHE_HOME": str(cache)}).returncode == 0
        subprocess.run(["mount", "-o", "remount,ro", str(cache)], check=True)
        result = cli("--format", "json", "--file", str(LEAF), extra_env={"XDG_CACHE_HOME": str(cache)})
        assert result.returncode == 0 and seed_answer(result) == SEED_ID and result.stderr == ""


@pytest.mark.parametrize(
    "fault",
    [
        ("fdopen", errno.ENOSPC, "No space left on device"),
        ("mkstemp", errno.EROFS, "Read-only file system"),
        ("mkstemp", errno.EACCES, "Permission denied"),
        ("replace", errno.EXDEV, "Invalid cross-device link"),
    ],
    ids=["disk-full", "read-only", "no-permission", "rename-fails"],
)
def test_write_faults_injected_give_one_warning_no_leftovers_and_the_right_catalog(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fault: tuple[str, int, str]
) -> None:
    """The same faults without a special file system: each write step made to fail in turn."""
    where, code, text = fault

    def fail(*args: object, **kwargs: object) -> object:
        raise OSError(code, os.strerror(code))

    class FailingFile:
        def __init__(self, fd: int, *args: object, **kwargs: object) -> None:
            self.fd = fd

        def __enter__(self) -> FailingFile:
            return self

        def __exit__(self, *exc: object) -> None:
            os.close(self.fd)

        def write(self, data: bytes) -> int:
            raise OSError(code, os.strerror(code))

    target = {"fdopen": (os, "fdopen", FailingFile), "mkstemp": (tempfile, "mkstemp", fail)}
    target["replace"] = (os, "replace", fail)
    module, name, replacement = target[where]
    monkeypatch.setattr(module, name, replacement)
    warnings: list[str] = []
    catalog = open_catalog(environ=environ(tmp_path), warn=warnings.append)
    monkeypatch.undo()
    assert len(catalog) == BUNDLED_COUNT and SEED_ID in list(catalog.ids)
    assert catalog.record(list(catalog.ids).index(SEED_ID)).id == SEED_ID
    assert len(warnings) == 1 and text in warnings[0] and "working without it" in warnings[0]
    assert temporaries(tmp_path / "cache") == []


# --- a damaged index -----------------------------------------------------------------------------


def built(tmp_path: Path) -> tuple[Path, bytes, dict[str, str]]:
    env = environ(tmp_path)
    open_catalog(environ=env)
    path = Path(index_path(record_paths(environ=env), env))
    return path, path.read_bytes(), env


def check_rebuilt(path: Path, env: dict[str, str], expect_warning: bool) -> None:
    warnings: list[str] = []
    catalog = open_catalog(environ=env, warn=warnings.append)
    assert len(catalog) == BUNDLED_COUNT and catalog.record(list(catalog.ids).index(SEED_ID)).id == SEED_ID
    assert len(warnings) == (1 if expect_warning else 0), warnings
    memory_source(path.read_bytes()).body.verify()  # a good index again
    again: list[str] = []
    assert len(open_catalog(environ=env, warn=again.append)) == BUNDLED_COUNT and again == [], "used as it is now"


def test_a_truncated_index_is_rebuilt_with_one_warning(tmp_path: Path) -> None:
    path, good, env = built(tmp_path)
    for cut in (0, 5, len(MAGIC) + 3, len(MAGIC) + 40, len(good) // 2, len(good) - 1):
        path.write_bytes(good[:cut])
        check_rebuilt(path, env, expect_warning=True)


def header_size(good: bytes) -> int:
    return int.from_bytes(good[len(MAGIC) + 4 : len(MAGIC) + 12], "little")


def header_of(good: bytes) -> dict[str, object]:
    return marshal.loads(good[len(MAGIC) + 12 : len(MAGIC) + 12 + header_size(good)])


def with_raw_header(good: bytes, raw: bytes) -> bytes:
    """The index with another header, under a valid checksum: what gets past the checksum is checked too."""
    rest = good[len(MAGIC) + 12 + header_size(good) :]
    return sealed(len(raw).to_bytes(8, "little") + raw + rest)


def flip_each(tmp_path: Path, region: str) -> None:
    path, good, env = built(tmp_path)
    expected = open_catalog(environ=env)
    columns = (list(expected.ids), [expected.pattern(n) for n in range(len(expected))], list(expected.repos))
    body = len(MAGIC) + 12 + header_size(good)
    span = range(len(MAGIC), body) if region == "header" else range(body, len(good))
    for position in span[:: max(len(span) // 120, 1)]:
        damaged = bytearray(good)
        damaged[position] ^= 0x5A
        path.write_bytes(bytes(damaged))
        warnings: list[str] = []
        catalog = open_catalog(environ=env, warn=warnings.append)
        source = catalog._token_index.source  # type: ignore[attr-defined]
        patterns = [catalog.pattern(n) for n in range(len(catalog))]
        assert (list(catalog.ids), patterns, list(catalog.repos)) == columns, position
        assert catalog.record(len(catalog) - 1).id == columns[0][-1]
        if region == "header" or warnings:
            assert len(warnings) == 1 and "damaged" in warnings[0], position
        else:  # the body is read block by block: a block no read needed was never used, and would be caught
            assert (position - body) // BLOCK not in source.body.blocks, position
            with pytest.raises(IndexDamaged):
                source.body.verify()


def test_a_flipped_byte_in_the_index_header_is_caught(tmp_path: Path) -> None:
    """Before marshal reads it: a corrupted size there could ask for gigabytes."""
    flip_each(tmp_path, "header")


def test_a_flipped_byte_in_the_index_rows_and_arrays_is_caught(tmp_path: Path) -> None:
    flip_each(tmp_path, "body")


def test_index_headers_that_decode_to_garbage_are_caught(tmp_path: Path) -> None:
    """Headers that pass the checksum (written by something else) are checked field by field."""
    path, good, env = built(tmp_path)
    meta = header_of(good)
    garbage = [
        [1, 2, 3],
        {**meta, "count": "many"},
        {**meta, "count": 10**12},
        {**meta, "unindexed": [10**9]},
        {**meta, "problems": [("a",)]},
        {**meta, "files": None},
    ]
    for header in garbage:
        path.write_bytes(with_raw_header(good, marshal.dumps(header)))
        check_rebuilt(path, env, expect_warning=True)
    unhashable_key = b"{" + marshal.dumps([1]) + marshal.dumps(1) + b"0"  # marshal raises TypeError
    for raw in (unhashable_key, b"{\xff\xfe", b"not marshal at all"):
        path.write_bytes(with_raw_header(good, raw))
        check_rebuilt(path, env, expect_warning=True)
    path.write_bytes(sealed((1 << 62).to_bytes(8, "little") + good[len(MAGIC) + 12 :]))  # a size past the end
    check_rebuilt(path, env, expect_warning=True)


def test_an_index_from_another_version_is_rebuilt_silently(tmp_path: Path) -> None:
    path, good, env = built(tmp_path)
    meta = header_of(good)
    for header in ({**meta, "version": "0.0.1"}, {**meta, "format": 1}):
        path.write_bytes(with_raw_header(good, marshal.dumps(header)))
        check_rebuilt(path, env, expect_warning=False)
    path.write_bytes(b"LEAFEXPLAIN-INDEX\n" + good[len(MAGIC) + 4 :])  # the layout before checksums
    check_rebuilt(path, env, expect_warning=False)


def test_an_enormous_file_where_the_index_goes_is_not_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path, _, env = built(tmp_path)
    with path.open("wb") as handle:
        handle.truncate(2 << 30)
    opened = index_read.open_regular

    def open_bounded(file: Path, *, max_bytes: int | None = None, **kwargs: Any) -> Any:
        if Path(file) == path:
            assert max_bytes is not None and max_bytes < 1 << 30, f"would take {file} whole"
        return opened(file, max_bytes=max_bytes, **kwargs)

    monkeypatch.setattr(index_read, "open_regular", open_bounded)
    check_rebuilt(path, env, expect_warning=True)


def test_temporary_files_left_by_a_killed_writer_are_cleared(tmp_path: Path) -> None:
    path, _, env = built(tmp_path)
    stale, fresh = path.parent / ".index-killed.tmp", path.parent / ".index-writing-now.tmp"
    stale.write_bytes(b"half an index")
    fresh.write_bytes(b"another process is writing this one")
    os.utime(stale, (0, 0))
    path.unlink()
    open_catalog(environ=env)
    assert not stale.exists() and fresh.exists()


def test_a_damaged_index_through_the_command_line(cli, tmp_path: Path) -> None:
    assert cli("list").returncode == 0
    [path] = (tmp_path / "cache").rglob("index/*.marshal")  # the index (the regexes' codes lie beside it)
    data = bytearray(path.read_bytes())
    for position in range(len(data) // 2, len(data), BLOCK):  # a byte in each block of the second half
        data[position] ^= 0xFF
    path.write_bytes(bytes(data))
    result = cli("--format", "json", "--file", str(LEAF))
    assert result.returncode == 0 and seed_answer(result) == SEED_ID
    assert len(index_warnings(result.stderr)) == 1 and "damaged" in result.stderr
    again = cli("--format", "json", "--file", str(LEAF))
    assert again.stderr == ""


def test_a_record_file_changed_after_the_index_check_is_read_afresh(tmp_path: Path) -> None:
    folder = tmp_path / "recs"
    folder.mkdir()
    record = make_record("00000000000000aa", "widget broke")
    (folder / "r.json").write_text(json.dumps(record))
    catalog = open_catalog([str(folder)], bundled=False, environ=environ(tmp_path))
    (folder / "r.json").write_text(" " * 50 + json.dumps({**record, "documentation": "moved"}))  # offsets change
    assert catalog.record(0).documentation == "moved"


# --- several builders at once -------------------------------------------------------------------


def test_processes_building_the_index_at_once_all_answer_right(tmp_path: Path) -> None:
    write_many_records(tmp_path / "data" / "leafexplain" / "records", 20_000)
    env = Isolated(tmp_path).environ
    procs = [
        subprocess.Popen(
            [*leafexplain_command(), "--format", "json", "--file", str(LEAF)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
        )
        for _ in range(6)
    ]
    results = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0] * 6
    assert all(json.loads(out)["events"][0]["matches"][0]["id"] == SEED_ID and err == b"" for out, err in results)
    [path] = (tmp_path / "cache").rglob("index/*.marshal")  # the index (the regexes' codes lie beside it)
    memory_source(path.read_bytes()).body.verify()
    assert temporaries(tmp_path / "cache") == []
    assert len(open_catalog(environ=environ(tmp_path))) == BUNDLED_COUNT + 20_000


def test_an_internal_error_quoting_hostile_text_stays_one_printable_line(environment) -> None:
    from leafexplain.cli.guard import run_guarded

    def buggy() -> int:
        raise ValueError("bad \x1b]52;c;eA==\x07 \x1b[2J\nsecond line")

    env = environment()
    assert run_guarded(buggy, env) == 70
    err = env.said
    assert err.count("\n") == 1 and "\x1b" not in err and "\\x1b]52" in err


def test_stdout_closed_before_the_start_is_a_quiet_end(tmp_path: Path) -> None:
    done = subprocess.run(
        [*leafexplain_command(), "--format", "plain", "--file", str(LEAF)],
        stderr=subprocess.PIPE,
        env=Isolated(tmp_path).environ,
        timeout=60,
        preexec_fn=lambda: os.close(1),
    )
    assert done.returncode == 0 and done.stderr == b""


if sys.platform != "linux":  # FIFOs, tmpfs, /proc: the checks above are Linux's
    pytestmark = pytest.mark.skip("Linux only")


def resealed(good: bytes, body: bytes) -> bytes:
    """The index with another body under checksums made for it: damage no checksum can see (a crafted index)."""
    import zlib
    from array import array

    start = len(MAGIC) + 12
    meta = marshal.loads(good[start : start + header_size(good)])
    blocks = array("I", (zlib.crc32(body[at : at + BLOCK]) for at in range(0, len(body), BLOCK)))
    header = marshal.dumps({**meta, "blocks": blocks.tobytes(), "body": len(body)})
    return sealed([len(header).to_bytes(8, "little"), header, body])


def test_a_crafted_body_under_valid_checksums_never_ends_a_run(tmp_path: Path) -> None:
    """Bytes changed anywhere in the body, the block checksums made for them: whatever the arrays and rows
    then say (rows out of order, postings past the end, malformed text), reading, matching, listing and
    fetching records raise nothing; the run goes on (healed from the record files, or with the crafted rows)."""
    import random

    from leafexplain.match import Matcher
    from leafexplain.models import ErrorEvent

    path, good, env = built(tmp_path)
    body_start = len(MAGIC) + 12 + header_size(good)
    events = [
        ErrorEvent("rust", "panic", "Can't convert a non leaf tensor into a tracked tensor", tentative=False),
        ErrorEvent("python", "KeyError", "'x'"),
        ErrorEvent("unknown", None, "CUDA out of memory. Tried to allocate 2 GiB", tentative=True),
    ]
    rng = random.Random(16)
    runs = 400 if os.environ.get("LEAFEXPLAIN_FUZZ") else 40
    for _ in range(runs):
        body = bytearray(good[body_start:])
        for _ in range(rng.choice((1, 4, 64))):
            at = rng.randrange(len(body))
            body[at] = rng.choice((0, 0xFF, 0x1F, rng.randrange(256)))
        path.write_bytes(resealed(good, bytes(body)))
        catalog = open_catalog(environ=env, warn=lambda message: None)
        matcher = Matcher(catalog)
        for event in events:
            matcher.match(event, matches_only=event.tentative)
        assert len(list(catalog.ids)) == len(catalog)
        catalog.record(rng.randrange(len(catalog)))


def test_crafted_section_places_under_a_valid_checksum_never_end_a_run(tmp_path: Path) -> None:
    """The header's sections moved (overlapping, swapped, shifted) and resealed: sizes that do not agree are
    refused at open (one warning, rebuilt); ones that do are read, checked where read, and never end the run."""
    import random

    from leafexplain.match import Matcher
    from leafexplain.models import ErrorEvent

    path, good, env = built(tmp_path)
    start = len(MAGIC) + 12
    meta = marshal.loads(good[start : start + header_size(good)])
    body = good[start + header_size(good) :]
    rng = random.Random(61)
    for _ in range(60):
        sections = list(meta["sections"])
        a, b = rng.randrange(len(sections)), rng.randrange(len(sections))
        change = rng.choice(("swap", "shift", "overlap"))
        if change == "swap":
            sections[a], sections[b] = (sections[b][0], sections[a][1]), (sections[a][0], sections[b][1])
        elif change == "shift":
            offset, length = sections[a]
            sections[a] = (max(0, min(len(body) - length, offset + rng.choice((-8, 8, 4096)))), length)
        else:
            sections[a] = (sections[b][0], sections[a][1])
        header = marshal.dumps({**meta, "sections": sections})
        path.write_bytes(sealed([len(header).to_bytes(8, "little"), header, body]))
        catalog = open_catalog(environ=env, warn=lambda message: None)
        Matcher(catalog).match(ErrorEvent("python", "KeyError", "'x'"))
        assert len(list(catalog.slugs)) == len(catalog)


def test_the_index_reads_the_same_without_pread(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Windows has no os.pread: the index is read with seek and read there, and gives the same catalog."""
    _, _, env = built(tmp_path)

    def seen(catalog: Any) -> tuple[list[str], ...]:
        every_fiftieth = [catalog.record(n).id for n in range(0, len(catalog), 50)]
        return list(catalog.ids), [catalog.pattern(n) for n in range(len(catalog))], every_fiftieth

    expected = seen(open_catalog(environ=env))
    monkeypatch.delattr(os, "pread")
    warnings: list[str] = []
    assert seen(open_catalog(environ=env, warn=warnings.append)) == expected
    assert warnings == []
