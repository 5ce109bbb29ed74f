"""The default view in colour (render/formats/terminal.py, without rich): each part in its style, code highlighted
in the terminal's own palette, links clickable only when checked, and no escape code wherever colour is off."""

from __future__ import annotations

import re

import pytest

from leafexplain.render.formats.highlight import COMMENT, FUNCTION, KEYWORD, NUMBER, STRING, TYPE, highlight
from tests.conftest import OUTPUTS, Isolated

JSON_DECODE = str(OUTPUTS / "python" / "json-decode.txt")
LEAF_PANIC = str(OUTPUTS / "rust" / "cargo-run-leaf.txt")
SGR = re.compile(r"\x1b\[([0-9;]*)m")
OSC8 = re.compile(r"\x1b\]8;;([^\x1b]*)\x1b\\")
ESCAPE = "\x1b"


def styles(output: str) -> dict[str, set[str]]:
    """Each styled run's text and the SGR parameters it was written with."""
    found: dict[str, set[str]] = {}
    for run in re.finditer(r"\x1b\[([0-9;]+)m([^\x1b]*)\x1b\[0m", output):
        found.setdefault(run.group(2).strip(), set()).add(run.group(1))
    return found


def test_each_part_of_the_view_has_its_style(cli: Isolated) -> None:
    out = cli("--color", "always", "--width", "100", "--file", LEAF_PANIC).stdout
    shown = styles(out)
    assert shown["panic · burn · exact wording"] == {"1"}  # the heading, bold
    assert shown["Can't convert a non leaf tensor into a tracked tensor"] == {"1;4;33"}  # the matched words
    assert shown["why:"] == shown["fix:"] == shown["raised:"] == {"1;36"}  # labels in their column
    assert shown["before:"] == {"1;31"} and shown["after:"] == {"1;32"}
    assert shown["1."] == {"2"}  # a fix's number, dim
    assert shown["let"] == {"94"} and shown["// panic: non-leaf"] == {"2"}  # Rust keyword; comment dim
    # The link: the whole URL, underlined blue, inside a hyperlink to itself.
    (target,) = OSC8.findall(out.replace("\x1b]8;;\x1b\\", ""))
    assert target.startswith("https://github.com/tracel-ai/burn/blob/")
    assert f"\x1b]8;;{target}\x1b\\\x1b[4;34m{target}\x1b[0m\x1b]8;;\x1b\\" in out


def test_the_users_line_is_bold_and_highlighted(cli: Isolated) -> None:
    out = cli("--color", "always", "--no-source", "--file", JSON_DECODE).stdout
    assert "\x1b[1;94mreturn\x1b[0m\x1b[1m json.loads(text)\x1b[0m" in out


@pytest.mark.parametrize(
    ("args", "extra", "tty"),
    [
        (["--format", "rich", "--color", "never"], {}, False),
        ([], {"NO_COLOR": "1"}, True),
        ([], {"TERM": "dumb"}, True),  # a terminal that says it has no colour: none, as rich gave it
        ([], {}, False),  # a pipe: the plain format
    ],
    ids=["color-never", "no-color", "dumb-terminal", "pipe"],
)
def test_no_escape_code_where_colour_is_off(cli: Isolated, args: list[str], extra: dict[str, str], tty: bool) -> None:
    coloured = cli("--color", "always", "--file", LEAF_PANIC, extra_env={"COLUMNS": "100"}).stdout
    out = cli(*args, "--file", LEAF_PANIC, extra_env={"COLUMNS": "100", "TERM": "xterm", **extra}, tty=tty).stdout
    assert ESCAPE not in out
    without_codes = OSC8.sub("", SGR.sub("", coloured)).replace("\x1b]8;;\x1b\\", "")
    assert [line.rstrip() for line in out.splitlines()] == [line.rstrip() for line in without_codes.splitlines()]


def test_a_terminal_known_to_show_links_gets_the_place_as_the_link(cli: Isolated) -> None:
    out = cli("--file", JSON_DECODE, "--no-source", extra_env={"FORCE_HYPERLINK": "1", "TERM": "xterm"}, tty=True)
    (target,) = [t for t in OSC8.findall(out.stdout) if t]
    assert target.startswith("https://github.com/python/cpython/blob/")
    assert "\x1b[4;34mPython, Lib/json/decoder.py:" in out.stdout and target not in OSC8.sub("", out.stdout)


def colours(code: str, language: str) -> dict[str, str | None]:
    pieces = highlight(code, language)
    assert "".join(text for text, _ in pieces) == code  # nothing added, nothing lost
    return {text.strip(): sgr for text, sgr in pieces if text.strip()}


def test_python_keywords_strings_comments_numbers_and_names() -> None:
    shown = colours('def load(path):  return len(open(path).read()) + 0x1f, f"at {path}"  # why', "python")
    assert shown["def"] == shown["return"] == KEYWORD
    assert shown["load"] == FUNCTION and shown["len"] == shown["open"] == TYPE
    assert shown["0x1f"] == NUMBER and shown["# why"] == COMMENT
    assert (
        shown['f"at {'] == shown["}"] == shown['"'] == STRING and shown["path"] is None
    )  # the f-string's expression is code
    assert set(colours("x.sum()", "python").values()) == {None}  # a method is not the builtin
    assert colours("sum(x)", "python")["sum"] == TYPE


def test_rust_keywords_types_macros_strings_comments_numbers() -> None:
    shown = colours('let v: Vec<u8> = vec![1, 2]; println!("{}", v.len()); // done', "rust")
    assert shown["let"] == KEYWORD and shown["Vec"] == shown["u8"] == TYPE
    assert shown["vec!"] == shown["println!"] == FUNCTION
    assert shown["1"] == NUMBER and shown['"{}"'] == STRING and shown["// done"] == COMMENT


@pytest.mark.parametrize("language", ["text", "toml", "unknown", ""])
def test_another_language_is_not_coloured(language: str) -> None:
    assert highlight('let x = "a" # b', language) == [('let x = "a" # b', None)]


@pytest.mark.parametrize("language", ["python", "rust"])
def test_any_line_comes_back_whole(language: str) -> None:
    """Unclosed strings, stray quotes and backslashes, comments inside strings: pieces that join to the line."""
    for line in ['"abc', "'\\", 'r#"x', "b'\\''", '"a # b" # c', "x = '''a", "#[derive(", "@", "'a", "1..2", "\\" * 50]:
        colours(line * 3, language)
