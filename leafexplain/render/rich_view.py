"""The rich format: renderables built from views, with colour, syntax highlighting and clickable links."""

from __future__ import annotations

from collections.abc import Iterable

from rich.console import Console, ConsoleOptions, Group, RenderResult
from rich.padding import Padding
from rich.panel import Panel
from rich.style import Style
from rich.syntax import Syntax
from rich.table import Table
from rich.text import Text

from leafexplain.env import Environment
from leafexplain.models import Record, Report
from leafexplain.render import Row
from leafexplain.render import Style as Options
from leafexplain.render.brief import briefs, summary_line
from leafexplain.render.console import make_console
from leafexplain.render.document import Block, View, record_view, report_views
from leafexplain.render.screen import Line, report_cards
from leafexplain.render.tables import record_table_rich
from leafexplain.text import printable, safe_link

THEME = "ansi_dark"  # the terminal's own palette: readable on dark and light backgrounds
SECTION_STYLE = Style(bold=True, color="cyan")
SPAN_STYLE = Style(bold=True, color="yellow", underline=True)


def _block(block: Block) -> object:
    if block.kind == "text":
        return Text(block.text)
    if block.kind in ("bullets", "numbered"):
        table = Table.grid(padding=(0, 1))
        table.add_column(no_wrap=True, style="dim")
        table.add_column()
        for n, item in enumerate(block.items, start=1):
            table.add_row(f"{n}." if block.kind == "numbered" else "•", Text(item))
        return table
    if block.kind == "code":
        return Syntax(block.text, block.language, theme=THEME, background_color="default", word_wrap=True)
    if block.kind == "snippet":
        return Syntax(
            block.text,
            block.language,
            theme=THEME,
            background_color="default",
            line_numbers=True,
            start_line=block.first_line,
            highlight_lines={block.highlight_line} if block.highlight_line else None,
            word_wrap=True,
        )
    # A link: clickable where the terminal supports OSC 8, and printed in full either way.
    # Kept on one line even past the width, so that it can be copied whole. Only an https link
    # goes into the terminal's hyperlink sequence, whoever built the block.
    link = safe_link(block.text)
    if link is None:  # named, escaped, never clickable
        return Text(printable(block.text))
    return Text(link, style=Style(link=link, underline=True, color="blue"), no_wrap=True, overflow="ignore")


class ViewRenderable:
    """One view as rich renderables; rich calls __rich_console__ when printing."""

    def __init__(self, view: View) -> None:
        self.view = view

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        view = self.view
        message = Text(view.message)
        if view.span:
            message.stylize(SPAN_STYLE, *view.span)
        facts = Table.grid(padding=(0, 1))
        facts.add_column(style="dim", no_wrap=True)
        facts.add_column(overflow="fold")  # a long path wraps; it is never cut
        for key, value in view.facts:
            facts.add_row(f"{key}:", Text(value))
        border = "green" if view.explained else "red"
        yield Panel(
            Group(message, facts) if view.message.strip() else facts,
            title=Text(view.heading, style=Style(bold=True)),
            title_align="left",
            border_style=border,
        )
        for section in view.sections:
            yield Text("")
            yield Text(section.title, style=SECTION_STYLE)
            for block in section.blocks:
                if block.kind == "link":  # not padded: padding would crop a link wider than the screen
                    yield Text.assemble("  ", _block(block), no_wrap=True, overflow="ignore")  # type: ignore[arg-type]
                else:
                    yield Padding(_block(block), (0, 0, 0, 2))  # type: ignore[arg-type]
        yield Text("")


def print_views(console: Console, views: Iterable[View]) -> None:
    for view in views:
        console.print(ViewRenderable(view), crop=False)  # a link wider than the screen stays whole


CARD_STYLES = {
    "heading": Style(bold=True),
    "unknown": Style(bold=True, color="red"),
    "span": SPAN_STYLE,
    "label": SECTION_STYLE,
    "before": Style(bold=True, color="red"),
    "after": Style(bold=True, color="green"),
    "example": SECTION_STYLE,
    "dim": Style(dim=True),
    "marked": Style(bold=True),
}


def _card_line(line: Line) -> Text:
    """One row of the default view: styled by role, code highlighted in its language, links clickable."""
    text = Text(no_wrap=True, overflow="ignore")
    for segment in line:
        if segment.role == "link":
            link = safe_link(segment.target)  # only a checked https link goes into the hyperlink sequence
            text.append(segment.text, Style(link=link, underline=True, color="blue") if link else None)
        elif segment.language and segment.text.strip():
            code = Syntax(segment.text, segment.language, theme=THEME, background_color="default").highlight(
                segment.text
            )
            code.rstrip()
            if segment.role == "marked":
                code.stylize(CARD_STYLES["marked"])
            text.append_text(code)
        else:
            text.append(segment.text, CARD_STYLES.get(segment.role))
    return text


def print_cards(console: Console, report: Report, style: Options, hyperlinks: bool) -> None:
    """The default view: each error on one screen, rows laid out by render/screen.py (the terminal wraps a
    long URL; nothing else is wider than the screen)."""
    found = briefs(report, verbose=style.verbose, show_all=style.show_all)
    for n, lines in enumerate(report_cards(found, console.width, hyperlinks=hyperlinks, full_hint=style.full_hint)):
        if n:
            console.print()
        for line in lines:
            console.print(_card_line(line), soft_wrap=True)
    summary = summary_line(report)
    if summary:
        console.print()
        console.print(Text(summary, style=Style(bold=True)))


def write_report(report: Report, env: Environment, style: Options) -> None:
    console = make_console(env, style.color, style.width)
    if style.full:
        print_views(console, report_views(report, style))
    else:
        print_cards(console, report, style, hyperlinks=env.hyperlinks and env.use_color(style.color))
    env.stdout.flush()


def write_record(record: Record, env: Environment, style: Options) -> None:
    print_views(make_console(env, style.color, style.width), [record_view(record)])
    env.stdout.flush()


def write_records(rows: list[Row], env: Environment, style: Options) -> None:
    make_console(env, style.color, style.width).print(record_table_rich(rows))
    env.stdout.flush()
