"""`run`'s step summary, read by a CommonMark parser with GitHub's tables (markdown-it-py): what a pull request
controls (the command, the paths of its frames, the messages its code raises, a record of its own) shows as
exactly that text, and can open no link, image or HTML, start no heading and break no table."""

from __future__ import annotations

import shlex
import string
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from markdown_it.token import Token

from leafexplain.models import Candidate, ErrorEvent, Finding, Frame, Report
from leafexplain.render.formats.markdown import md_code, md_escape
from leafexplain.render.shown import Shown
from leafexplain.render.step_summary import step_summary
from tests.conftest import Isolated, as_record, leafexplain_command, make_record
from tests.hostile.test_properties import examples
from tests.render.test_markdown import PARSER, tokens

# CommonMark with the GitHub additions a summary could be broken by: tables, strikethrough.
ROOT = "/ws"
OURS = "https://github.com/"  # the only links the summary writes: a record's place in its library
RECORD_URL = "https://github.com/acme/widgets/blob/0123abc/src/lib.rs#L10"
FORBIDDEN = {"image", "html_inline", "html_block", "hr", "blockquote_open", "s_open", "em_open"}

TICKS = [("`" * n) for n in range(1, 6)]
MESSAGES = [
    *(f"a {t}code{t} b" for t in TICKS),
    *(f"{t} starts and ends {t}" for t in TICKS),
    "<img src=x onerror=alert(1)>",
    "<script>alert(1)</script> and <b>bold</b>",
    "![x](http://evil.example/x.png)",
    "[a](javascript:alert(1)) and [ref]: https://evil.example/",
    "<https://evil.example/autolink>",
    "a | b | c",
    "# a heading of its own",
    "a heading's end ##",
    "> a quote",
    "1. a list",
    "- an item",
    "&lt;entity&gt; &amp; &#60;",
    "*em* _em_ **strong** ~~struck~~",
    "a \\| backslash and pipe \\",
]
PATHS = [
    *(f"src/{t}evil{t}.py" for t in TICKS),
    f"src/{TICKS[1]} ends in a run{TICKS[2]}",
    "src/a|b.py",
    "src/a\\|b.py",
    "src/<img src=x onerror=alert(1)>.py",
    "src/![x](http:/evil.example/x.png).py",
    "src/[a](javascript:alert(1)).py",
]
COMMANDS = [
    *(f"sh -c 'echo {t}id{t} | tee log'" for t in TICKS),
    f"{TICKS[0]}leading and trailing{TICKS[0]}",
    "sh -c 'echo <img src=x onerror=alert(1)> ![x](http://evil.example/x.png)'",
    "sh -c 'printf \"a\\n# heading\\n\"'\n# a second line",
    "run [a](javascript:alert(1)) | cat",
]


def shown(inline: Token) -> str:
    """The text an inline token shows."""
    return "".join(t.content for t in inline.children or () if t.type in ("text", "text_special", "code_inline"))


def summary_of(message: str, path: str, command: str, *, url: str = RECORD_URL, **record: str) -> str:
    frame = Frame(f"{ROOT}/{path}", 7)
    event = ErrorEvent("python", "ValueError", message, frames=(frame,), user_frame=frame)
    fields = {"githubUrl": url, "solutions": [message, f"use {TICKS[0]}x{TICKS[0]}"], "documentation": message}
    found = as_record(make_record("00000000000000aa", message, **fields, **record))
    explained = Finding(event, matches=(Candidate(found, 100.0, "regex"),))
    unexplained = Finding(event._replace(error_type=None))
    return step_summary(Shown(Report((explained, unexplained), 85.0), {"GITHUB_WORKSPACE": ROOT}), command, 1)


def check_summary(markdown: str, *, message: str, path: str, command: str, url: str = RECORD_URL) -> None:
    """No input text became anything but text, the table has its rows and cells, the code spans are the input."""
    found = tokens(markdown)
    assert not {t.type for t in found} & FORBIDDEN, markdown
    assert {str(t.attrs["href"]) for t in found if t.type == "link_open"} <= {PARSER.normalizeLink(url)}, markdown
    assert all(str(t.attrs["href"]).startswith(OURS) for t in found if t.type == "link_open")
    strong = [found[i + 1].content for i, t in enumerate(found) if t.type == "strong_open"]
    assert strong == ["What it means", "How to fix it"], "the summary's own labels only"
    headings = [(t.tag, found[i + 1]) for i, t in enumerate(found) if t.type == "heading_open"]
    assert [tag for tag, _ in headings] == ["h3", "h4"], "the run's heading and the one record's"
    first_line = message.strip().split("\n", 1)[0]
    assert shown(headings[0][1]) == f"leafexplain: {' '.join(command.split(chr(10)))} exited with 1"
    assert shown(headings[1][1]) == f"ValueError: {first_line}"
    code = [t.content for t in found if t.type == "code_inline"]
    assert code[0] == " ".join(command.split("\n")), "the command, on one line"
    assert code.count(f"{path}:7") == 2, "the place of each error"
    cells = [t for t in found if t.type == "inline" and found[found.index(t) - 1].type in ("td_open", "th_open")]
    assert sum(t.type == "tr_open" for t in found) == 3 and len(cells) == 9, "a header and a row per error, 3 cells"
    assert [shown(c) for c in cells[3::3]] == [f"ValueError: {first_line}", first_line]


@pytest.mark.parametrize("message", MESSAGES)
def test_no_message_can_become_markdown(message: str) -> None:
    markdown = summary_of(message, "src/app.py", "pytest -x")
    check_summary(markdown, message=message, path="src/app.py", command="pytest -x")


@pytest.mark.parametrize("path", PATHS)
def test_every_path_is_a_code_span_that_shows_it(path: str) -> None:
    markdown = summary_of("boom", path, "pytest -x")
    check_summary(markdown, message="boom", path=path, command="pytest -x")


@pytest.mark.parametrize("command", COMMANDS)
def test_the_command_is_a_code_span_that_shows_it(command: str) -> None:
    check_summary(summary_of("boom", "src/app.py", command), message="boom", path="src/app.py", command=command)


def test_a_record_of_the_pull_requests_own_cannot_add_a_link_or_an_image() -> None:
    """A record the pull request adds (`--records` in its tree): its URL passes the record check with a `)` in
    it, its name and text hold Markdown. The one link is its URL, whole; nothing else is Markdown."""
    url = "https://github.com/a/b/blob/x/y.py)![i](https://evil.example/p.png)[c](https://evil.example/"
    hostile = {"repo": "acme/![x](https://evil.example/x.png)", "slug": "<img src=x onerror=alert(1)>"}
    markdown = summary_of("boom [a](javascript:alert(1))", "src/app.py", "pytest", url=url, **hostile)
    check_summary(markdown, message="boom [a](javascript:alert(1))", path="src/app.py", command="pytest", url=url)
    found = tokens(markdown)
    hrefs = [str(t.attrs["href"]) for t in found if t.type == "link_open"]
    assert hrefs and set(hrefs) == {PARSER.normalizeLink(url)}
    cells = [t for t in found if t.type == "inline" and found[found.index(t) - 1].type == "td_open"]
    assert shown(cells[2]) == f"{hostile['repo']} · {hostile['slug']}"


def test_a_cell_cut_to_its_length_stays_one_row() -> None:
    """A first line longer than a cell takes is cut with a note: on the same line, the table whole."""
    message, path = "x" * 500, "src/" + "p" * 400 + ".py"
    found = tokens(summary_of(message, path, "pytest"))
    assert sum(t.type == "tr_open" for t in found) == 3
    assert not {t.type for t in found} & FORBIDDEN


printable = st.text(st.sampled_from(string.ascii_letters[:6] + string.digits[:3] + string.punctuation + " "))


@examples(300)
@given(printable, printable, printable)
def test_any_printable_input_shows_as_written(message: str, path: str, command: str) -> None:
    message = message.strip() or "m"
    path = "src/f" + path.replace("/", "")  # a file inside the workspace, its path as written
    command = command or "c"
    check_summary(summary_of(message, path, command), message=message, path=path, command=command)


@given(printable)
def test_inline_code_and_escaped_text_show_their_text_exactly(text: str) -> None:
    if text.strip(" "):
        [paragraph] = [t for t in PARSER.parse(f"a {md_code(text)} b") if t.type == "inline"]
        assert [t.content for t in paragraph.children or () if t.type == "code_inline"] == [text]
        table = f"| h |\n| - |\n| {md_code(text, in_table=True)} |"
        [cell] = [t for t in PARSER.parse(table) if t.type == "inline"][1:]
        assert [t.content for t in cell.children or () if t.type == "code_inline"] == [text]
    if text.strip():
        [line] = [t for t in PARSER.parse(md_escape(text)) if t.type == "inline"]
        assert shown(line) == text.strip() and all(t.type in ("text", "text_special") for t in line.children or ())


# --- the whole way: a pull request's script, run in Actions ----------------------------------------

HOSTILE_SCRIPT = """\
raise ValueError("``</code><img src=x onerror=alert(1)> ![x](http://evil.example/x.png) | # not a heading")
"""


def test_a_real_run_writes_a_summary_its_output_cannot_inject(tmp_path: Path) -> None:
    workspace = tmp_path / "workspace"
    (workspace / "pkg").mkdir(parents=True)
    script = workspace / "pkg" / "``evil`|x.py"
    script.write_text(HOSTILE_SCRIPT)
    summary = tmp_path / "summary.md"
    env = Isolated(tmp_path).environ
    env.update(GITHUB_ACTIONS="true", GITHUB_WORKSPACE=str(workspace), GITHUB_STEP_SUMMARY=str(summary))
    argv = [sys.executable, str(script), "`x`", "``y``"]
    done = subprocess.run(
        [*leafexplain_command(), "run", "--", *argv],
        capture_output=True,
        text=True,
        env=env,
        cwd=workspace,
        stdin=subprocess.DEVNULL,
        timeout=120,
    )
    assert done.returncode == 1, done.stderr
    markdown = summary.read_text(encoding="utf-8")
    found = tokens(markdown)
    assert not {t.type for t in found} & FORBIDDEN, markdown
    assert all(str(t.attrs["href"]).startswith(OURS) for t in found if t.type == "link_open")
    code = [t.content for t in found if t.type == "code_inline"]
    assert code[0] == shlex.join(argv)
    assert "pkg/``evil`|x.py:1" in code
    cells = [t for t in found if t.type == "inline" and found[found.index(t) - 1].type == "td_open"]
    assert shown(cells[0]) == "ValueError: " + HOSTILE_SCRIPT.split('"')[1]
