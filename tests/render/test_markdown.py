"""The Markdown format, read by a CommonMark parser (markdown-it-py): headings, code and links only where we
write them, inline code as code, and record text that cannot become anything but text."""

from __future__ import annotations

from pathlib import Path

import pytest
from markdown_it import MarkdownIt
from markdown_it.token import Token

from tests.conftest import LEAF, OUTPUTS, SEED_SLUG, make_record
from tests.conftest import write_records as write

# CommonMark, with the GitHub additions a record could abuse (tables, strikethrough).
PARSER = MarkdownIt("commonmark").enable(["table", "strikethrough"])
CASES = {
    "burn": ["--file", str(LEAF)],
    "three": ["--file", str(OUTPUTS / "rust" / "cargo-test-three.txt")],
    "json": ["--file", str(OUTPUTS / "python" / "json-decode.txt")],
    "unknown": ["--file", str(OUTPUTS / "rust" / "cargo-run-unknown.txt")],
}
MESSAGE = "Widget frobnication failed for gadget 7"
INJECTIONS = [
    "# A heading of the record's own",
    "Setext heading\n===",
    "a rule:\n\n---\n\n***",
    "<script>alert(1)</script> and <b>bold</b>",
    "[click me](javascript:alert(1)) and [ref]: https://evil.example/",
    "![an image](https://evil.example/x.png)",
    "<https://evil.example/autolink>",
    "| a | b |\n|---|---|\n| c | d |",
    "1. a list the record starts\n- another\n+ and another",
    "> a quote",
    "~~struck~~ and *emphasis* and __strong__",
    "&lt;entity&gt; &amp; &#60;",
    "```\nfenced\n```",
    "    indented code",
]


def tokens(markdown: str) -> list[Token]:
    """Every token, inline children included."""
    out: list[Token] = []
    for token in PARSER.parse(markdown):
        out.append(token)
        out.extend(token.children or ())
    return out


def kinds(markdown: str) -> set[str]:
    return {t.type for t in tokens(markdown)}


def links(markdown: str) -> list[str]:
    return [str(t.attrs.get("href")) for t in tokens(markdown) if t.type == "link_open"]


def texts(markdown: str) -> str:
    """What a reader sees as text: the content of text and inline code tokens."""
    return "".join(t.content for t in tokens(markdown) if t.type in ("text", "code_inline", "softbreak"))


@pytest.mark.parametrize("full", [False, True])
@pytest.mark.parametrize("case", sorted(CASES))
def test_real_outputs_parse_as_written(cli, case: str, full: bool) -> None:
    args = ["--format", "markdown", "--no-source", *(["--full"] if full else []), *CASES[case]]
    markdown = cli(*args).stdout
    found = kinds(markdown)
    assert not found & {"html_block", "html_inline", "image", "table_open", "hr", "blockquote_open", "s_open"}
    assert all(link.startswith("https://github.com/") for link in links(markdown))
    headings = [t for t in tokens(markdown) if t.type == "heading_open"]
    errors = markdown.count("\n## ") + markdown.startswith("## ")
    assert sum(1 for h in headings if h.tag == "h2") == errors >= 1
    assert all(h.tag in ("h2", "h3") for h in headings) and (full or all(h.tag == "h2" for h in headings))


def test_inline_code_stays_inline_code(cli) -> None:
    """A record's `backticks` are code, not `\\`` escaped backticks."""
    markdown = cli("--format", "markdown", "--no-source", "--file", str(OUTPUTS / "rust" / "cargo-test-three.txt"))
    code = {t.content for t in tokens(markdown.stdout) if t.type == "code_inline"}
    assert {"a[i]", "v.get(i)", "Option::unwrap", "leafexplain show ea455540e8c53de7"} <= code
    assert "\\`" not in markdown.stdout


@pytest.mark.parametrize("full", [False, True])
def test_record_text_cannot_inject_markdown(cli, tmp_path: Path, full: bool) -> None:
    hostile = "\n\n".join(INJECTIONS)
    fields = {
        "messagePattern": MESSAGE.replace("7", "{}"),
        "documentation": hostile,
        "solutions": INJECTIONS,
        "triggerScenarios": hostile,
        "preventionTips": INJECTIONS,
        "tags": ["rust"],
    }
    write(tmp_path / "records", "hostile.json", make_record("00000000000000aa", MESSAGE, **fields))
    panic = f"thread 'main' panicked at src/main.rs:1:5:\n{MESSAGE}\n"
    args = ["--records", str(tmp_path / "records"), "--no-bundled", "--format", "markdown"]
    markdown = cli(*args, *(["--full"] if full else []), input=panic).stdout
    found = kinds(markdown)
    for forbidden in ("html_block", "html_inline", "image", "table_open", "hr", "blockquote_open", "s_open", "em_open"):
        assert forbidden not in found, forbidden
    assert links(markdown) == [], "no link: the record has no githubUrl, and its text makes none"
    assert [t.tag for t in tokens(markdown) if t.type == "heading_open"] == (
        ["h2", *["h3"] * markdown.count("\n### ")] if full else ["h2"]
    )
    assert "code_block" not in found and sum(t.type == "fence" for t in tokens(markdown)) == 1, "the message only"
    # Each piece reads as the record wrote it.
    seen = texts(markdown)
    for piece in ("# A heading of the record's own", "<script>alert(1)</script>", "[click me](javascript:alert(1))"):
        assert piece in seen
    assert "&lt;entity&gt; &amp; &#60;" in seen and "~~struck~~ and *emphasis* and __strong__" in seen


def test_show_in_markdown_parses(cli) -> None:
    markdown = cli("show", SEED_SLUG, "--format", "markdown").stdout
    assert not kinds(markdown) & {"html_block", "html_inline", "image", "hr"}
    assert all(link.startswith("https://github.com/tracel-ai/burn/") for link in links(markdown))


def test_a_record_tables_cells_show_their_text_and_nothing_else() -> None:
    """`list --format markdown`: a record's message and type are cells of text, whatever they hold."""
    from leafexplain.render.formats.markdown import record_table_markdown
    from tests.conftest import as_record

    hostile = "<img src=x onerror=alert(1)> ![x](https://evil.example/x.png) | `a|b` [a](javascript:alert(1))"
    record = as_record(make_record(message=hostile, errorType="# <b>Type</b> | x"))
    found = tokens(record_table_markdown([(record, None)]))
    assert not {t.type for t in found} & {"html_inline", "html_block", "image", "link_open", "code_inline"}
    cells = [t for i, t in enumerate(found) if t.type == "inline" and found[i - 1].type == "td_open"]
    assert ["".join(k.content for k in c.children or ()) for c in cells] == [
        record.id,
        record.repo,
        "# <b>Type</b> | x",
        hostile,
    ]


def test_sarifs_help_in_markdown_links_a_records_url_whole() -> None:
    """A record's URL may hold a `)` (the record check allows it): the link is the whole URL, nothing after it
    becomes Markdown; the command to run is one code span however the id reads."""
    from leafexplain.render.formats.sarif import rule
    from tests.conftest import as_record

    url = "https://github.com/a/b/blob/x/y.py)![i](https://evil.example/p.png)"
    record = as_record(make_record(githubUrl=url, id="``x`` <b>"))
    found = tokens(rule(record)["help"]["markdown"])
    assert not {t.type for t in found} & {"html_inline", "html_block", "image"}
    assert [t.attrs["href"] for t in found if t.type == "link_open"] == [PARSER.normalizeLink(url)]
    assert [t.content for t in found if t.type == "code_inline"][-1] == "leafexplain show '``x`` <b>'"
