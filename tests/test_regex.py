"""leafexplain.regex: a lazy regex answers as the compiled pattern does; a kept code builds the same pattern."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from leafexplain import regex
from leafexplain.regex import lazy_regex


def test_a_lazy_regex_answers_as_the_compiled_one() -> None:
    lazy, compiled = lazy_regex(r"(?P<word>[a-z]+)(\d)", re.I), re.compile(r"(?P<word>[a-z]+)(\d)", re.I)
    assert "search" not in vars(lazy)  # nothing compiled yet
    text = "ab1 CD2 ef"
    assert lazy.search(text).span() == compiled.search(text).span()  # type: ignore[union-attr]
    assert "search" in vars(lazy)  # compiled once, its methods in place
    assert lazy.sub("-", text) == compiled.sub("-", text) == "- - ef"
    assert [m.group("word") for m in lazy.finditer(text)] == ["ab", "CD"]
    assert lazy.findall(text) == compiled.findall(text) and lazy.split(text) == compiled.split(text)
    assert lazy.match(text) is not None and lazy.fullmatch(text) is None
    assert (lazy.pattern, lazy.groups, lazy.groupindex) == (compiled.pattern, 2, compiled.groupindex)


# --- compiled codes kept on disk (the command line's own runs) ----------------------------------------------


KEPT = sys.implementation.name == "cpython" and sys.version_info >= (3, 11)
needs_kept = pytest.mark.skipif(not KEPT, reason="codes are kept only by CPython 3.11 and later")
PATTERNS = [(r"(?P<word>[a-z]+)(\d)", re.I), (r"^Error: (?P<m>.*)$", re.S | re.M), (rb"\x80+", 0), ("plain", 0)]


@pytest.fixture
def kept(tmp_path: Path) -> Iterator[Path]:
    regex.keep_codes_in(str(tmp_path))
    yield tmp_path
    regex.stop_keeping_codes()


def the_file(folder: Path) -> Path:
    (found,) = folder.glob("regex-*.marshal")
    return found


@needs_kept
def test_a_pattern_built_from_its_kept_code_is_the_pattern_re_compiles(kept: Path, monkeypatch) -> None:
    first = [regex.compiled(p, f) for p, f in PATTERNS]  # type: ignore[arg-type]
    regex.save_codes()
    assert the_file(kept).stat().st_size > 0
    regex.stop_keeping_codes()
    regex.keep_codes_in(str(kept))
    compile_calls: list[object] = []
    real = re.compile
    monkeypatch.setattr(re, "compile", lambda *a: compile_calls.append(a) or real(*a))
    again = [regex.compiled(p, f) for p, f in PATTERNS]  # type: ignore[arg-type]
    assert not compile_calls  # every one built from its code
    for (pattern, flags), one, two in zip(PATTERNS, first, again, strict=True):
        expected = real(pattern, flags)
        assert one == two == expected  # a Pattern equals another of the same pattern, flags and code
        assert (two.groups, two.groupindex, two.flags) == (expected.groups, expected.groupindex, expected.flags)
    assert regex.compiled(PATTERNS[0][0], PATTERNS[0][1]).search("ab1").group("word") == "ab"  # type: ignore[union-attr]


@needs_kept
@pytest.mark.parametrize("damage", ["garbage", "truncated", "checksum", "bad code"])
def test_a_damaged_file_or_entry_is_compiled_anew_never_a_crash(kept: Path, damage: str) -> None:
    regex.compiled("ab+c")
    regex.save_codes()
    path = the_file(kept)
    data = path.read_bytes()
    if damage == "garbage":
        path.write_bytes(b"\x00\xff" * 50)
    elif damage == "truncated":
        path.write_bytes(data[: len(data) // 2])
    elif damage == "checksum":
        path.write_bytes(data[:-1] + bytes([data[-1] ^ 1]))
    else:  # sealed properly, but the code is not one the engine accepts
        import marshal
        import zlib

        body = marshal.dumps({("ab+c", 0): (32, [999, 1, 2], 0, {}, (None,))})
        path.write_bytes(regex._MAGIC + zlib.crc32(body).to_bytes(4, "little") + body)
    regex.stop_keeping_codes()
    regex.keep_codes_in(str(kept))
    assert regex.compiled("ab+c") == re.compile("ab+c")
    assert regex.compiled("ab+c").fullmatch("abbbc")


def test_without_keep_codes_in_nothing_is_written(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert regex.compiled("x(y)z") == re.compile("x(y)z")
    regex.save_codes()
    assert not list(tmp_path.rglob("regex-*"))


@needs_kept
def test_a_cache_that_cannot_be_written_is_left_alone(tmp_path: Path) -> None:
    blocked = tmp_path / "file-not-folder"
    blocked.write_text("")
    regex.keep_codes_in(str(blocked))  # a folder that is a file: every write fails
    try:
        assert regex.compiled("q+") == re.compile("q+")
        regex.save_codes()  # quietly
    finally:
        regex.stop_keeping_codes()


@needs_kept
def test_the_command_keeps_its_codes_and_answers_the_same_from_them(tmp_path: Path) -> None:
    env = {"XDG_CACHE_HOME": str(tmp_path), "PATH": "/usr/bin:/bin", "NO_COLOR": "1", "COLUMNS": "80"}
    panic = Path(__file__).parents[1] / "examples" / "burn-panic.txt"
    command = [sys.executable, "-m", "leafexplain", "--format", "json", "--file", str(panic)]
    first = subprocess.run(command, capture_output=True, env=env, timeout=120)
    path = the_file(tmp_path / "leafexplain")
    size = path.stat().st_size
    second = subprocess.run(command, capture_output=True, env=env, timeout=120)
    assert first.returncode == second.returncode == 0
    assert first.stdout == second.stdout and b"non leaf tensor" in second.stdout
    assert second.stderr == first.stderr == b""
    assert path.stat().st_size == size  # nothing new to keep
