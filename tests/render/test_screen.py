"""The default view as a person sees it: the installed command on a pseudo-terminal of 80x24 and 120x40, its
bytes rendered by a terminal emulator (pyte), and assertions on the screen.

One error's view fits the screen with its first fix on it; links are whole (the OSC 8 target, and the
URL as text where the terminal is not known to show links); no code line is cut inside a token.
Golden screens for five real outputs of the corpus are in tests/golden/screens/ (regenerate with
LEAFEXPLAIN_UPDATE_GOLDEN=1 and read the diff).
"""

from __future__ import annotations

import fcntl
import itertools
import json
import os
import re
import select
import struct
import subprocess
import termios
from functools import cache
from pathlib import Path
from typing import NamedTuple

import pyte
import pytest

from leafexplain.records import open_catalog
from tests.conftest import CORPUS, OUTPUTS, RECORDS, SEED_ID, Isolated, leafexplain_command

GOLDEN = Path(__file__).parents[1] / "golden" / "screens"
SIZES = [(80, 24), (120, 40)]
CARGO = CORPUS / "scenarios" / "cargo"
OSC8 = re.compile(rb"\x1b\]8;[^;\x07\x1b]*;([^\x07\x1b]*)(?:\x1b\\|\x07)")
ESCAPES = re.compile(r"\x1b\][^\x07\x1b]*(?:\x1b\\|\x07)|\x1b\[[0-?]*[ -/]*[@-~]")
# What says the terminal shows links, or multiplexes: none of it may leak in from the machine running the tests.
TERMINAL_HINTS = ("FORCE_HYPERLINK", "TERM_PROGRAM", "VTE_VERSION", "WT_SESSION", "KITTY_WINDOW_ID", "TMUX", "STY")
INDEX_ID = "ea455540e8c53de7"  # Rust std: index out of bounds
MATMUL_ID = "d2461b3e32e77ec6"  # PyTorch: mat1 and mat2 shapes cannot be multiplied
JSON_ID = "264ef8b11cfe434c"  # CPython: Expecting value


class Case(NamedTuple):
    args: tuple[str, ...]
    record: str | None  # the record of a one-error case
    code: Path | None = None  # the user's file the view quotes, when it is read from this machine (relative: in
    # the folder the command runs in)


SHAPES = OUTPUTS / "records" / "pytorch" / "mat1-and-mat2-shapes-cannot-be-multiplied-32x512-a.txt"
INDEX_BACKTRACE = OUTPUTS / "records" / "rust" / "index-out-of-bounds-the-len-is-3-but-the-index-is.backtrace.txt"
CASES = {
    "burn-seed": Case(("demo", "--root", str(CARGO)), SEED_ID, CARGO / "app" / "src" / "main.rs"),
    "pytorch-shapes": Case(("--no-source", "--file", str(SHAPES)), MATMUL_ID),
    "cpython-json": Case(("--no-source", "--file", str(OUTPUTS / "python" / "json-decode.txt")), JSON_ID),
    "rust-index-backtrace": Case(("--file", str(INDEX_BACKTRACE)), INDEX_ID, Path("main.rs")),
    "cargo-test-three": Case(("--root", str(CARGO), "--file", str(OUTPUTS / "rust" / "cargo-test-three.txt")), None),
}


@cache
def record(record_id: str) -> dict:
    for path in RECORDS.rglob("*.json"):
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("record", {}).get("id") == record_id:
            return data["record"]
    raise LookupError(record_id)


class Terminal(NamedTuple):
    rows: list[str]  # the screen, each row its full width
    raw: bytes  # what the command wrote

    @property
    def text(self) -> str:
        """The screen as text: rows without trailing blanks, no blank rows at the end."""
        return "\n".join(row.rstrip() for row in self.rows).rstrip("\n") + "\n"

    @property
    def joined(self) -> str:
        """The rows one after another: a line the terminal wrapped reads whole again."""
        return "".join(self.rows)

    @property
    def lines(self) -> list[str]:
        """The lines the command wrote, without escape sequences."""
        return ESCAPES.sub("", self.raw.decode("utf-8")).replace("\r\n", "\n").split("\n")


def on_terminal(args: tuple[str, ...], columns: int, rows: int, environ: dict[str, str], cwd: Path) -> Terminal:
    """The installed command with a pseudo-terminal of `columns` x `rows` as its stdout and stderr."""
    main, child = os.openpty()
    fcntl.ioctl(child, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
    chunks = []
    with subprocess.Popen(
        [*leafexplain_command(), *args], stdin=subprocess.DEVNULL, stdout=child, stderr=child, env=environ, cwd=cwd
    ) as process:
        os.close(child)
        while select.select([main], [], [], 120)[0]:
            try:
                data = os.read(main, 65536)
            except OSError:  # the command closed its end
                break
            if not data:
                break
            chunks.append(data)
        assert process.wait(timeout=60) == 0  # every case here is explained
    os.close(main)
    raw = b"".join(chunks)
    screen = pyte.Screen(columns, rows)
    pyte.ByteStream(screen).feed(raw)
    return Terminal([row.ljust(columns) for row in screen.display], raw)


@pytest.fixture
def terminal_user(tmp_path: Path) -> Isolated:
    user = Isolated(tmp_path, TERM="xterm-256color")
    for name in (*TERMINAL_HINTS, "LINES", "COLUMNS", "NO_COLOR"):
        user.environ.pop(name, None)
    # The record index built before the screen is taken: a first run on a terminal draws the "indexing
    # records" bar when the build takes over half a second (a busy machine), and these tests read the view.
    open_catalog(environ=user.environ)
    return user


def run_case(name: str, columns: int, rows: int, user: Isolated) -> Terminal:
    case = CASES[name]
    cwd = user.tmp
    if name == "rust-index-backtrace":  # the program that printed it (the record's `before`), where it ran
        before = record(INDEX_ID)["exampleFix"].split("// after")[0].replace("// before\n", "")
        (cwd / "main.rs").write_text(before, encoding="utf-8")
    return on_terminal(case.args, columns, rows, user.environ, cwd)


def link_targets(raw: bytes) -> list[bytes]:
    """The URL of each OSC 8 hyperlink (the sequence that ends one has none)."""
    return [target for target in OSC8.findall(raw) if target]


def code_rows(terminal: Terminal) -> list[str]:
    """The rows of the example fix: from a `before:` or `after:` label to the next label."""
    out, inside = [], False
    for row in terminal.rows:
        label = re.match(r"^  (\w+):", row)
        if label:
            inside = label.group(1) in ("before", "after", "example")
        if inside and not row[11:].startswith("…"):
            out.append(row[11:].rstrip())
    return out


def assert_never_cut_inside_a_token(shown: str, originals: list[str]) -> None:
    text = shown.strip()
    if not text.endswith(" …"):
        assert any(text == o.strip() for o in originals), f"a code line shown changed: {shown!r}"
        return
    kept = text[: -len(" …")].rstrip()
    whole = [o.strip() for o in originals if o.strip().startswith(kept)]
    assert whole, f"a cut code line is no line's start: {shown!r}"
    rest = whole[0][len(kept) :]
    assert not (kept[-1:].isalnum() and rest[:1].isalnum()), f"cut inside a token: {shown!r}"


@pytest.mark.parametrize(("columns", "rows"), SIZES)
@pytest.mark.parametrize("name", [n for n, c in CASES.items() if c.record])
def test_one_error_fits_the_screen_with_its_fix_a_whole_link_and_whole_tokens(
    name: str, columns: int, rows: int, terminal_user: Isolated
) -> None:
    terminal = run_case(name, columns, rows, terminal_user)
    shown = record(CASES[name].record)
    lines = [line for line in terminal.lines if line.strip()]
    # Nothing scrolled away: the first line written is the screen's first row; the prompt gets a row too.
    assert terminal.rows[0].rstrip() == lines[0] and len(terminal.text.splitlines()) < rows
    # The first fix, on screen beside its label.
    first_words = " ".join(shown["solutions"][0].split()[:4])
    assert any(row.startswith("  fix:") and first_words in row for row in terminal.rows), terminal.text
    # The link: the terminal's hyperlink to the whole URL, and the URL itself whole on screen.
    # (the record's own, or where its message is at a release when its own commit is gone: the seed)
    moved = [v["githubUrl"] for v in shown.get("messageVariants") or () if v.get("recordCommitMissing")]
    url = moved[0] if moved else shown["githubUrl"]
    assert url.encode() in link_targets(terminal.raw)
    assert url in terminal.joined
    # Code: never wider than the screen, never cut inside a token.
    example = shown["exampleFix"].split("\n")
    for row in code_rows(terminal):
        assert_never_cut_inside_a_token(row, example)
    code = CASES[name].code
    if code:
        source = (terminal_user.tmp / code).read_text(encoding="utf-8").split("\n")  # a relative one: where it ran
        for row in terminal.rows:
            mine = re.match(r"^ {9}[> ] \d+ \| (.*)$", row)
            if mine:
                assert_never_cut_inside_a_token(mine.group(1), source)
    assert "more:" in terminal.text and "--full" in terminal.text


def test_a_terminal_that_shows_links_gets_the_place_as_the_link(terminal_user: Isolated) -> None:
    terminal_user.environ["FORCE_HYPERLINK"] = "1"
    terminal = run_case("cpython-json", 80, 24, terminal_user)
    url = record(JSON_ID)["githubUrl"]
    assert link_targets(terminal.raw) == [url.encode()]
    assert url not in terminal.joined, "no URL row: the place itself is the link"
    assert any(row.startswith("  raised:  Python, Lib/json/decoder.py:") for row in terminal.rows)
    assert len(terminal.text.splitlines()) < 24


def test_three_failures_each_compact_then_a_summary(terminal_user: Isolated) -> None:
    terminal = run_case("cargo-test-three", 80, 24, terminal_user)
    lines = terminal.lines
    headings = [line for line in lines if re.match(r"^\[\d/3\] panic", line)]
    assert len(headings) == 3
    # Each error within one screen of its own.
    starts = [lines.index(h) for h in headings] + [lines.index("3 errors: 3 explained")]
    assert all(b - a <= 23 for a, b in itertools.pairwise(starts))
    assert terminal.text.rstrip().endswith("3 errors: 3 explained")
    assert "test tests::three_no_even_value" in "\n".join(lines)


@pytest.mark.parametrize(("columns", "rows"), SIZES)
@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_screens(name: str, columns: int, rows: int, terminal_user: Isolated) -> None:
    screen = run_case(name, columns, rows, terminal_user).text
    golden = GOLDEN / f"{name}.{columns}x{rows}.txt"
    if os.environ.get("LEAFEXPLAIN_UPDATE_GOLDEN"):
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_text(screen, encoding="utf-8")
    assert screen == golden.read_text(encoding="utf-8")


def test_the_docs_show_the_golden_screens() -> None:
    """docs/output.md's two screenshots (one Rust, one Python, 80 columns), and the README's Rust one, are
    the golden screens of the real command."""
    root = Path(__file__).parents[2]
    output = (root / "docs" / "output.md").read_text(encoding="utf-8")
    readme = (root / "README.md").read_text(encoding="utf-8")
    for name, pages in (("burn-seed", (output, readme)), ("cpython-json", (output,))):
        screen = f"```text\n{(GOLDEN / f'{name}.80x24.txt').read_text(encoding='utf-8')}```"
        assert all(screen in page for page in pages), name
