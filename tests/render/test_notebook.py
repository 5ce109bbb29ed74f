"""The notebook's HTML block (render/notebook.py): the default and the long view, every text escaped, nothing
external, a link only where `safe_link` passed it."""

from __future__ import annotations

from html.parser import HTMLParser

from leafexplain.api import explain
from leafexplain.render import Style
from leafexplain.render.notebook import notebook_html

HOSTILE_LINE = "json.loads('<img src=x onerror=alert(1)>')  # </div><script>alert(2)</script>"
TRACEBACK = (
    "Traceback (most recent call last):\n"
    '  File "/work/notebooks/<b>load</b>.py", line 7, in <module>\n'
    f"    {HOSTILE_LINE}\n"
    "json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)\n"
)


class Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.links: list[str] = []
        self.text = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.links += [value or "" for name, value in attrs if name == "href"]

    def handle_data(self, data: str) -> None:
        self.text += data


def parsed(html: str) -> Tags:
    tags = Tags()
    tags.feed(html)
    return tags


def test_the_default_view_is_one_block_of_plain_tags_with_the_records_link(bundled_matcher) -> None:
    report = explain(TRACEBACK)
    html = notebook_html(report, Style("plain"))
    tags = parsed(html)
    assert html.startswith('<div class="leafexplain"') and html.endswith("</div>")
    assert set(tags.tags) <= {"div", "span", "ol", "li", "a", "code", "hr"}, "no script, style, image or form"
    assert len(tags.links) == 1 and tags.links[0].startswith("https://github.com/python/cpython/blob/")
    assert "Expecting value: line 1 column 1 (char 0)" in tags.text and "What it means" in tags.text
    assert "/work/notebooks/<b>load</b>.py:7" in tags.text, "the user's path shown as text, escaped"


def test_the_long_view_escapes_the_users_path(bundled_matcher) -> None:
    report = explain(TRACEBACK)
    html = notebook_html(report, Style("plain", full=True))
    tags = parsed(html)
    assert "script" not in tags.tags and "img" not in tags.tags
    assert "Prevention tips" in tags.text and "About this record" in tags.text, "the long view"
    assert "/work/notebooks/<b>load</b>.py:7" in tags.text


def test_nothing_found_is_no_block() -> None:
    assert notebook_html(explain("all good"), Style("plain")) == ""
