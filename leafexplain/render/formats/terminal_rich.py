"""The terminal format's long view (`--full`, `show`) and tables, written with rich: colour, highlighted code, links."""

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
from leafexplain.render.document import View, record_view, report_views
from leafexplain.render.formats.rich_console import make_console
from leafexplain.render.sections import Block
from leafexplain.render.style import Row
from leafexplain.render.style import Style as Options
from leafexplain.render.tables import table_cells, table_headers
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


def record_table_rich(rows: list[Row]) -> Table:
    """A table that folds long cells, and cuts only the message, with `…`."""
    table = Table(show_edge=False, header_style="bold")
    for header in table_headers(rows):
        message = header == "message"
        table.add_column(header, no_wrap=not message, overflow="ellipsis" if message else "fold")
    for record, score in rows:
        table.add_row(*(Text(cell) for cell in table_cells(record, score)))
    return table


def print_views(console: Console, views: Iterable[View]) -> None:
    for view in views:
        console.print(ViewRenderable(view), crop=False)  # a link wider than the screen stays whole


def write_report(report: Report, env: Environment, style: Options) -> None:
    """`--full`: the long view (the default view is terminal.py's, which hands `--full` over to this)."""
    print_views(make_console(env, style.color, style.width), report_views(report, style))
    env.stdout.flush()


def write_record(record: Record, env: Environment, style: Options) -> None:
    print_views(make_console(env, style.color, style.width), [record_view(record)])
    env.stdout.flush()


def write_records(rows: list[Row], env: Environment, style: Options) -> None:
    make_console(env, style.color, style.width).print(record_table_rich(rows))
    env.stdout.flush()
