"""The Markdown format: CommonMark for issues, pull requests and chat, where record text is only ever text.

Record and input text is escaped so that it cannot start a heading, rule, list, quote, table, HTML
or link; the inline code a record writes in backticks stays inline code. Code goes in fences
longer than any backtick run inside it. Links are only the checked https links, as autolinks. Every
Markdown leafexplain writes (the step summary, SARIF's help) makes its code spans, links and
escaped text with the helpers here: `md_code`, `md_link`, `md_escape` (input text), `md_text`
(record text).
"""

from __future__ import annotations

from collections.abc import Iterable

from leafexplain.env import Environment
from leafexplain.models import Record, Report
from leafexplain.regex import lazy_regex
from leafexplain.render.brief import Brief, CodeLine, RaisedLines, briefs, count_line
from leafexplain.render.document import View, record_view, report_views
from leafexplain.render.sections import Block, snippet_lines
from leafexplain.render.shown import Shown
from leafexplain.render.streams import emit
from leafexplain.render.style import Row, Style
from leafexplain.render.tables import table_cells, table_headers
from leafexplain.text import printable, safe_link

# Any ASCII punctuation may be backslash-escaped in CommonMark. Anywhere in a line these can mean
# something: emphasis, code, links and images, HTML, autolinks and entities, tables, strikethrough.
_BACKTICKS = lazy_regex(r"`+")
_LIST_NUMBER = lazy_regex(r"\d{1,9}(?=[.)])")
_SPECIAL = lazy_regex(r"([\\`*_\[\]<&|~])")
# A code span as a record writes it: a run of backticks, text on one line, the same run again.
_CODE_SPAN = lazy_regex(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)")


def md_fence(text: str, language: str) -> str:
    fence = "```"
    while fence in text:
        fence += "`"
    return f"{fence}{language if language != 'text' else ''}\n{text}\n{fence}"


def md_code(content: str, *, in_table: bool = False) -> str:
    """`content` as inline code that shows exactly it, the one way every Markdown writer makes a code span.

    Fenced by one backtick more than its longest run of them, so that none ends it early; padded with a
    space when it starts or ends with a backtick or a space (CommonMark takes one away on each side). A
    line break becomes the space CommonMark would show for it, so that no line of it can start a block (a
    heading, a quote). In a table's cell each `|` is written `\\|`: GFM splits a row into cells before it
    reads code spans, and takes the backslash away as it does.
    """
    content = content.replace("\r\n", " ").replace("\r", " ").replace("\n", " ")
    if in_table:
        content = content.replace("|", "\\|")
    longest = max((len(run) for run in _BACKTICKS.findall(content)), default=0)
    fence = "`" * (longest + 1)
    if content.strip(" ") and (content[:1] in "` " or content[-1:] in "` "):
        content = f" {content} "  # a content of spaces alone is kept whole by CommonMark: no padding
    return f"{fence}{content}{fence}"


def md_link(label: str, url: str) -> str:
    """A link to a checked URL (`text.safe_link`: no space, `<` or `>` in it) with `label`, Markdown already.

    A URL holding a bracket is written between `<` and `>`, so that a `)` in it cannot end the link early
    and leave the rest (`![image](…)`) to be read as Markdown.
    """
    return f"[{label}](<{url}>)" if any(c in url for c in "()[]") else f"[{label}]({url})"


def _escape_text(text: str) -> str:
    return _SPECIAL.sub(r"\\\1", text)


def _no_block(line: str) -> str:
    """An escaped line that starts no block (heading, rule, list, quote) and ends no heading early."""
    if line.endswith("#"):  # `## a #` would lose its `#` as the heading's closing sequence
        line = line[:-1] + "\\#"
    number = _LIST_NUMBER.match(line)
    if number:  # `1.` or `1)` would start an ordered list
        return f"{number.group()}\\{line[number.end() :]}"
    if line[:1] in ("#", ">", "+", "=", "-"):
        return "\\" + line
    return line


def md_escape(text: str) -> str:
    """Input text (a message, a test's name, a record's name) as Markdown that shows exactly that text: every
    character that could mean something escaped, a backtick included, and no line starting a block."""
    return "\n".join(_no_block(_escape_text(line.strip())) for line in text.split("\n"))


def md_text(text: str) -> str:
    """Record text as Markdown that shows exactly that text: as `md_escape`, but the `code` a record writes
    in backticks kept as inline code."""
    out = []
    for line in text.split("\n"):
        line = line.strip()
        pieces, at = [], 0
        for span in _CODE_SPAN.finditer(line):
            pieces.append(_escape_text(line[at : span.start()]))
            pieces.append(md_code(span.group(2)))
            at = span.end()
        pieces.append(_escape_text(line[at:]))
        out.append(_no_block("".join(pieces)))
    return "\n".join(out)


def _md_block(block: Block) -> str:
    if block.kind == "text":
        return md_text(block.text)
    if block.kind == "bullets":
        return "\n".join(f"- {md_text(i)}" for i in block.items)
    if block.kind == "numbered":
        return "\n".join(f"{n}. {md_text(i)}" for n, i in enumerate(block.items, start=1))
    if block.kind == "code":
        return md_fence(block.text, block.language)
    if block.kind == "snippet":
        return md_fence("\n".join(snippet_lines(block, "")), block.language)
    return f"<{block.text}>" if safe_link(block.text) else md_text(printable(block.text))


def render_markdown(views: Iterable[View]) -> str:
    """The long view (`--full`, `show`): every section the record has."""
    parts: list[str] = []
    for view in views:
        parts.append(f"## {md_text(view.heading)}")
        if view.message.strip():
            parts.append(md_fence(view.message, "text"))
        if view.facts:
            parts.append("\n".join(f"- **{md_text(k)}**: {md_text(v)}" for k, v in view.facts))
        for section in view.sections:
            parts.append(f"### {md_text(section.title)}")
            parts.extend(_md_block(b) for b in section.blocks)
    return "\n\n".join(parts) + "\n" if parts else ""


def _code_fence(code: tuple[CodeLine, ...], language: str) -> str:
    digits = max((len(str(c.number)) for c in code if c.number is not None), default=0)
    lines = [
        ("> " if c.marked else "  ") + (f"{str(c.number).rjust(digits)} | " if c.number is not None else "") + c.text
        for c in code
    ]
    return md_fence("\n".join(lines), language)


def _raised_markdown(raised: RaisedLines) -> list[str]:
    """Where the library raised an error no record explains: the place and its link, the raising lines."""
    link = safe_link(raised.url)
    place = ", ".join(part for part in (raised.library, raised.where) if part)
    parts = ["**Raised:** " + " ".join([md_escape(place), *([f"<{link}>"] if link else [])])]
    if raised.code:
        parts.append(_code_fence(raised.code, raised.language))
    if raised.note:
        parts.append(md_escape(raised.note))
    return parts


def brief_markdown(brief: Brief, number: str = "") -> list[str]:
    """One error as the default view has it: a few labelled paragraphs, the example as a diff."""
    parts = [f"## {md_text(number + brief.heading)}"]
    if brief.message.strip():  # `AssertionError` alone has no message to show
        parts.append(md_fence(brief.message, "text"))
    said = []
    if brief.explanations:
        said.append(f"**Matched:** {md_text(brief.explanations[0].matched)}")
    where = " · ".join([w for w in [brief.where] if w] + list(brief.context))
    if where:
        said.append(f"**{'At' if brief.where else 'In'}:** {md_text(where)}")
    if said:
        parts.append("  \n".join(said))
    if brief.code:
        parts.append(_code_fence(brief.code, brief.code_language))
    if brief.repeat_of is not None:
        return [*parts, f"**Why:** explained above, for error {brief.repeat_of}."]
    if not brief.explanations:
        near = "\n".join(f"- {md_text(n)}" for n in brief.near)
        nearest = ["Nearest records, below the cut-off:", near] if near else ["No record comes close."]
        link = safe_link(brief.compiler_page)
        compiler = [f"**rustc:** {md_text(brief.compiler)}"] if brief.compiler else []
        compiler += [f"**Docs:** <{link}>"] if link else []
        return [
            *parts,
            *(["  \n".join(compiler)] if compiler else []),
            *(_raised_markdown(brief.raised) if brief.raised else []),
            "**No record matches this error.**",
            *nearest,
            f"**Try:** {md_code(brief.search or '')}",
        ]
    first = brief.explanations[0]
    if first.why:
        parts.append(f"**Why:** {md_text(first.why)}")
    if first.fixes:
        parts.append("**Fix:**")
        parts.append("\n".join(f"{n}. {md_text(fix)}" for n, fix in enumerate(first.fixes, start=1)))
    if first.example:
        parts.append("**Example:**")
        parts.append(md_fence("\n".join(f"{line.mark} {line.text}".rstrip() for line in first.example), "diff"))
    raised = [md_text(first.raised)] if first.raised else []
    link = safe_link(first.url)
    if raised or link:
        parts.append("**Raised:** " + " ".join([*raised, *([f"<{link}>"] if link else [])]))
    parts += [f"**Also:** {md_text(text)}" for text in brief.others]
    parts += [f"**Wrapper:** {md_text(e.matched)}" for e in brief.explanations[1:]]
    parts.append(f"**More:** {md_code(first.more)}, or add `--full`")
    return parts


def render_briefs(report: Report, style: Style) -> str:
    found = briefs(report, verbose=style.verbose, show_all=style.show_all)
    parts: list[str] = []
    for n, brief in enumerate(found, start=1):
        parts += brief_markdown(brief, f"[{n}/{len(found)}] " if len(found) > 1 else "")
    counted = count_line(report)
    if counted:
        parts.append(f"**{counted}**")
    return "\n\n".join(parts) + "\n" if parts else ""


def record_table_markdown(rows: list[Row]) -> str:
    """A GitHub-flavoured table, each cell's text escaped as input text is (a `|` cannot end the cell)."""
    headers = table_headers(rows)
    lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    lines += ["| " + " | ".join(md_escape(c) for c in table_cells(r, s)) + " |" for r, s in rows]
    return "\n".join(lines) + "\n"


def write_report(shown: Shown, env: Environment, style: Style) -> None:
    report = shown.report
    emit(env, render_markdown(report_views(report, style)) if style.full else render_briefs(report, style))


def write_record(record: Record, env: Environment, style: Style) -> None:
    emit(env, render_markdown([record_view(record)]))


def write_records(rows: list[Row], env: Environment, style: Style) -> None:
    emit(env, record_table_markdown(rows))
