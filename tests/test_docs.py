"""The documentation holds together: README.md opens with the set-up commands and stays short, every
relative link in it and in docs/ leads to a file and heading that exist, each page parses as the
CommonMark (with tables) it is meant to be, and the example in docs/api.md runs and prints what it says."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from markdown_it import MarkdownIt
from markdown_it.token import Token

from tests.conftest import ROOT, Isolated

PAGES = sorted([ROOT / "README.md", ROOT / "CONTRIBUTING.md", ROOT / "CHANGELOG.md", *(ROOT / "docs").glob("*.md")])
SETUP = (
    "pip install . && leafexplain demo                     # install, explain the bundled example panic\n"
    "pip install -e '.[test]' && python -m pytest          # install the test dependencies, run the suite\n"
)
TABLE_DELIMITER_ROW = re.compile(r"^\|( *:?-+:? *\|)+ *$")


def tokens(page: Path) -> list[Token]:
    return MarkdownIt("commonmark").enable("table").parse(page.read_text(encoding="utf-8"))


def inline_text(inline: Token) -> str:
    """A heading's text as shown: code spans and emphasis as their words."""
    return "".join(child.content for child in inline.children or () if child.type in ("text", "code_inline"))


def anchors(page: Path) -> set[str]:
    """The ids GitHub gives the page's headings: lower case, punctuation dropped, spaces as hyphens,
    a repeated one numbered."""
    seen: dict[str, int] = {}
    found = set()
    stream = tokens(page)
    for i, token in enumerate(stream):
        if token.type != "heading_open":
            continue
        slug = re.sub(r"[^\w\- ]", "", inline_text(stream[i + 1]).strip().lower()).replace(" ", "-")
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        found.add(f"{slug}-{count}" if count else slug)
    return found


def links(page: Path) -> list[str]:
    return [
        child.attrs["href"]
        for token in tokens(page)
        if token.type == "inline"
        for child in token.children or ()
        if child.type == "link_open"
    ]


def test_the_readme_opens_with_the_two_set_up_commands() -> None:
    stream = tokens(ROOT / "README.md")
    assert [stream[0].type, stream[1].content] == ["heading_open", "leafexplain"]
    fence = stream[3]
    assert (fence.type, fence.info, fence.content) == ("fence", "sh", SETUP)


def test_the_readme_is_short() -> None:
    assert len((ROOT / "README.md").read_text(encoding="utf-8").splitlines()) < 300


def test_the_readme_links_every_docs_page() -> None:
    linked = {href.split("#")[0] for href in links(ROOT / "README.md")}
    assert {f"docs/{page.name}" for page in (ROOT / "docs").glob("*.md")} <= linked
    assert {"CHANGELOG.md", "CONTRIBUTING.md"} <= linked


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(ROOT)))
def test_every_relative_link_leads_to_a_file_and_heading_that_exist(page: Path) -> None:
    for href in links(page):
        if re.match(r"[a-z]+:", href):
            continue  # https://, mailto: ...
        path, _, anchor = href.partition("#")
        target = (page.parent / path).resolve() if path else page
        assert target.exists(), (href, "no such file")
        if anchor:
            assert target.suffix == ".md", (href, "an anchor into a page that is not Markdown")
            assert anchor in anchors(target), (href, "no such heading")


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(ROOT)))
def test_each_page_parses_as_meant(page: Path) -> None:
    """Every table is a table, every code block says its language, and no raw HTML slips in."""
    stream = tokens(page)
    lines = page.read_text(encoding="utf-8").splitlines()
    in_code = {n for token in stream if token.type in ("fence", "code_block") for n in range(*token.map)}
    delimiter_rows = [n for n, line in enumerate(lines) if n not in in_code and TABLE_DELIMITER_ROW.match(line)]
    assert len([t for t in stream if t.type == "table_open"]) == len(delimiter_rows)
    assert not [t.map for t in stream if t.type == "fence" and not t.info], "a code block without its language"
    assert not [t.map for t in stream if t.type == "code_block"], "an indented code block (a stray indent)"
    html = [t.content for t in stream if t.type == "html_block"]
    html += [c.content for t in stream if t.type == "inline" for c in t.children or () if c.type == "html_inline"]
    assert not html


def test_the_api_example_runs_and_prints_what_the_page_says(tmp_path: Path) -> None:
    page = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    example = re.search(r"```python\n(.*?)```", page, re.DOTALL)[1]
    printed = re.search(r"It prints:\n\n```text\n(.*?)```", page, re.DOTALL)[1]
    done = subprocess.run(
        [sys.executable, "-c", example],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=Isolated(tmp_path).environ,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == printed
