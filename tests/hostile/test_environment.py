"""The environment is input too: COLUMNS held to what --width takes, relative XDG folders ignored, any output
encoding written (ASCII stand-ins for boxes and symbols), closed standard streams, a read that fails part way,
and text in UTF-16 or UTF-32 with its byte-order mark. (docs/robustness.md)"""

from __future__ import annotations

import io
import os
import re
import subprocess
from pathlib import Path

import pytest

from leafexplain.cli import main
from leafexplain.env import Environment, columns_from
from leafexplain.intake.stream import as_utf8
from tests.conftest import LEAF, SEED_ID, Isolated, leafexplain_command

GRAD = "RuntimeError: element 0 of tensors does not require grad and does not have a grad_fn"
TRACEBACK = f'Traceback (most recent call last):\r\n  File "train.py", line 3, in <module>\r\n{GRAD}\r\n'


@pytest.mark.parametrize(
    ("value", "width"),
    [
        *[("80", 80), (" 120 ", 120), ("10000000", 1000), ("9" * 5000, 1000), ("5", 20), ("0", None)],
        *[("²", None), ("٣٣", None), ("-5", None), ("abc", None), ("", None), ("1e3", None)],
    ],
)
def test_columns_is_held_to_what_width_takes(value: str, width: int | None) -> None:
    assert columns_from({"COLUMNS": value}) == width


@pytest.mark.parametrize("value", ["10000000", "²", "9" * 5000, "-1"])
def test_any_columns_renders_within_bounds(tmp_path: Path, value: str) -> None:
    user = Isolated(tmp_path)
    for args in (("demo", "--format", "rich", "--color", "always"), ("demo", "--format", "plain"), ("list",)):
        result = user.process(*args, extra_env={"COLUMNS": value, "LINES": value})
        assert result.returncode == 0, (args, result.stderr)
        shown = re.sub(r"\x1b\[[0-9;]*m|\x1b\]8;[^\x1b]*\x1b\\", "", result.stdout)  # what a terminal shows
        # bounded by what is shown: `list` has a line a record (of at most 1000 columns, its text cut to fit)
        lines = shown.splitlines()
        assert len(result.stdout) < 200_000 + 250 * len(lines) and max(map(len, lines)) <= 1000
        assert result.stderr == ""


def test_relative_xdg_folders_are_ignored(tmp_path: Path) -> None:
    cwd, home = tmp_path / "cwd", tmp_path / "home"
    cwd.mkdir()
    relative = {"XDG_CACHE_HOME": "cache", "XDG_DATA_HOME": "data", "XDG_CONFIG_HOME": "config", "HOME": str(home)}
    user = Isolated(tmp_path, **relative)
    assert user("list", cwd=cwd).returncode == 0
    assert user("completion", "install", "fish", cwd=cwd).returncode == 0
    assert list(cwd.iterdir()) == [], "nothing written into the current folder"
    assert list((home / ".cache" / "leafexplain" / "index").glob("*.marshal"))
    assert (home / ".config" / "fish" / "completions" / "leafexplain.fish").is_file()


@pytest.mark.parametrize("encoding", ["ascii", "latin-1", "cp1252", "utf-16"])
def test_any_output_encoding_works(tmp_path: Path, encoding: str) -> None:
    user = Isolated(tmp_path)
    env = {"PYTHONIOENCODING": encoding}
    bad = tmp_path / "bad"
    bad.mkdir()
    for n in range(25):  # more problems than are listed: the last line says "… and N more"
        (bad / f"{n}.json").write_text("{")
    for args in (
        ("demo", "--format", "rich", "--color", "always"),
        ("demo", "--format", "plain"),
        ("demo", "--format", "markdown"),
        ("list", "--records", str(bad)),
        ("search", "tensor"),
    ):
        done = subprocess.run(
            [*leafexplain_command(), *args], capture_output=True, env={**user.environ, **env}, timeout=60
        )
        assert done.returncode == 0, (args, done.stderr)
        out, err = done.stdout.decode(encoding), done.stderr.decode(encoding)
        assert "Traceback" not in err and "internal error" not in err, err
        if encoding == "ascii":
            assert out.isascii() and err.isascii()
        if args[0] == "list":
            assert "more record problems" in err


def test_ascii_output_keeps_boxes_and_symbols_readable(tmp_path: Path) -> None:
    done = subprocess.run(
        [*leafexplain_command(), "demo", "--full", "--format", "rich", "--color", "never", "--width", "80"],
        capture_output=True,
        env={**Isolated(tmp_path).environ, "PYTHONIOENCODING": "ascii"},
        timeout=60,
    )
    out = done.stdout.decode("ascii")
    assert out.startswith("+- panic - tracel-ai/burn - error ---") and "\n| Can't convert" in out and "???" not in out


def run_with_closed(fd: int, *args: str, tmp: Path) -> subprocess.CompletedProcess[bytes]:
    """`leafexplain ARGS` with file descriptor `fd` closed before it starts (`<&-`, `>&-`, `2>&-`)."""
    pipes = {n: subprocess.PIPE for n in (1, 2) if n != fd}
    return subprocess.run(
        [*leafexplain_command(), *args],
        stdout=pipes.get(1),
        stderr=pipes.get(2),
        env=Isolated(tmp).environ,
        preexec_fn=lambda: os.close(fd),
        timeout=60,
    )


def test_a_closed_stdin_is_no_input(tmp_path: Path) -> None:
    for args in ((), ("--file", "-"), ("--format", "json")):
        done = run_with_closed(0, *args, tmp=tmp_path)
        assert done.returncode == 2, (args, done.stderr)
        assert done.stderr.decode().splitlines() == ["leafexplain: cannot read stdin: it is closed (no input)"]
    text = run_with_closed(0, "--format", "json", GRAD, tmp=tmp_path)
    assert text.returncode == 0, "text given: stdin is not needed"


def test_closed_stdout_and_stderr_change_nothing_but_what_is_seen(tmp_path: Path) -> None:
    assert run_with_closed(1, "--file", str(LEAF), tmp=tmp_path).returncode == 0
    missing = run_with_closed(2, "--file", str(tmp_path / "missing"), tmp=tmp_path)
    assert missing.returncode == 2 and missing.stdout == b""
    assert run_with_closed(2, "--format", "json", "--file", str(LEAF), tmp=tmp_path).returncode == 0


def test_a_file_that_cannot_be_read_is_a_usage_error(cli) -> None:
    result = cli("--file", "/proc/self/mem")
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.splitlines() == ["leafexplain: cannot read /proc/self/mem: Input/output error"]


class FailsPartWay(io.RawIOBase):
    """A stream that gives one piece, then fails as a hung-up terminal does."""

    def __init__(self, first: bytes) -> None:
        self.first: bytes | None = first

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        if self.first is None:
            raise OSError(5, "Input/output error")
        first, self.first = self.first, None
        return first


def test_a_read_that_fails_part_way_explains_what_came_before(tmp_path: Path) -> None:
    out, err = io.StringIO(), io.StringIO()
    env = Environment(
        stdin=FailsPartWay(TRACEBACK.encode()), stdout=out, stderr=err, environ=Isolated(tmp_path).environ
    )
    assert main(["--format", "plain"], env) == 2
    assert "element 0 of tensors" in out.getvalue()
    assert err.getvalue() == "leafexplain: cannot read stdin: Input/output error\n"


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be", "utf-32-le", "utf-8"])
def test_text_with_a_byte_order_mark_is_decoded(cli, encoding: str) -> None:
    bom = "\ufeff".encode(encoding)
    data = bom + (TRACEBACK * 3).encode(encoding)
    result = cli("--format", "json", input=data)
    assert result.returncode == 0 and '"2ecb4a0c772a13bb"' in result.stdout, result.stderr
    pieces = [data[i : i + 1] for i in range(len(data))]  # a byte at a time, as a slow pipe gives it
    assert b"".join(as_utf8(pieces)) == (TRACEBACK * 3).encode()
    assert b"".join(as_utf8([b"plain ", b"bytes \xff"])) == b"plain bytes \xff", "no mark: untouched"


def test_powershell_redirected_output_is_explained(cli, tmp_path: Path) -> None:
    """What PowerShell's `>` writes: UTF-16LE with a byte-order mark, CRLF line ends."""
    log = tmp_path / "ps.log"
    log.write_bytes(b"\xff\xfe" + LEAF.read_text().replace("\n", "\r\n").encode("utf-16-le"))
    result = cli("--format", "json", "--file", str(log))
    assert result.returncode == 0 and SEED_ID in result.stdout
