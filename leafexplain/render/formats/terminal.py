"""The terminal format: colour and one screen per error, for a person at a terminal, written with SGR escape codes.

The default view is the everyday output, and is written without importing rich: render/layout.py
lays each error out as rows of segments with roles; this gives each role its style (as rich did: the
same codes on the screen) and writes the rows. rich costs about 60 ms a run to import and to render
these few rows; it still writes `--full`, `show` and the tables (`terminal_rich.py`), which this
module hands over to. Colour is decided as for rich: `--color`, NO_COLOR and a terminal, and no
colour on a terminal whose TERM says it has none (`dumb`). A link is a hyperlink (OSC 8) when colour is
on and it passes `safe_link`; its text is printed whole either way.
"""

from __future__ import annotations

from leafexplain.render.fitting import cells
from leafexplain.render.formats.highlight import highlight
from leafexplain.render.layout import render_cards
from leafexplain.render.streams import emit
from leafexplain.text import safe_link

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: this is everyday start-up
if TYPE_CHECKING:
    from leafexplain.env import Environment
    from leafexplain.models import Record, Report
    from leafexplain.render.layout import Line
    from leafexplain.render.style import Row, Style

CARD_STYLES = {  # SGR parameters of each role of render/layout.py's segments
    "heading": "1",
    "unknown": "1;31",
    "span": "1;4;33",
    "label": "1;36",
    "before": "1;31",
    "after": "1;32",
    "example": "1;36",
    "dim": "2",
    "marked": "1",
    "count": "1",
}
LINK_STYLE = "4;34"
CODE_TAB_SIZE = 4  # as pygments expanded a tab in code for rich; the rest of a row has the terminal's 8
TAB_SIZE = 8
# What rich took out of any text it printed: bell, backspace, vertical tab, form feed, carriage return.
_CONTROLS = dict.fromkeys((7, 8, 11, 12, 13))


def styled(text: str, sgr: str | None, colour: bool) -> str:
    return f"\x1b[{sgr}m{text}\x1b[0m" if colour and sgr and text else text


def _expand_tabs(text: str, column: int) -> str:
    """Tabs as spaces to the next stop of TAB_SIZE columns, counted from the row's start (`column` is where
    `text` begins)."""
    out = []
    for n, piece in enumerate(text.split("\t")):
        if n:
            pad = TAB_SIZE - column % TAB_SIZE
            out.append(" " * pad)
            column += pad
        out.append(piece)
        column += cells(piece)
    return "".join(out)


def card_line(line: Line, colour: bool) -> str:
    """One row of the default view: styled by role, code highlighted in its language, links clickable."""
    out: list[str] = []
    column = 0
    for segment in line:
        text = segment.text.translate(_CONTROLS)
        if segment.language and text.strip():
            text = text.expandtabs(CODE_TAB_SIZE).rstrip()
            marked = CARD_STYLES["marked"] if segment.role == "marked" else None
            pieces = highlight(text, segment.language) if colour else [(text, None)]
            runs: list[list[str]] = []  # pieces of one style together: one escape code for each run
            for piece, sgr in pieces:
                sgr = ";".join(filter(None, (marked, sgr)))
                if runs and runs[-1][0] == sgr:
                    runs[-1][1] += piece
                else:
                    runs.append([sgr, piece])
            out += [styled(piece, sgr, colour) for sgr, piece in runs]
        else:
            if "\t" in text:
                text = _expand_tabs(text, column)
            if segment.role != "link":
                out.append(styled(text, CARD_STYLES.get(segment.role), colour))
            else:
                link = safe_link(segment.target) if colour else None
                # Only a checked https link goes into the hyperlink sequence; another is printed as it is.
                out.append(f"\x1b]8;;{link}\x1b\\{styled(text, LINK_STYLE, colour)}\x1b]8;;\x1b\\" if link else text)
        column += cells(text)
    return "".join(out)


def write_report(report: Report, env: Environment, style: Style) -> None:
    if style.full:
        from leafexplain.render.formats import terminal_rich

        terminal_rich.write_report(report, env, style)
        return
    colour = env.use_color(style.color) and not env.dumb_terminal  # as rich decided it
    width = style.width or env.width

    def line_text(line: Line) -> str:
        return card_line(line, colour)

    emit(env, render_cards(report, style, width, line_text, hyperlinks=env.hyperlinks and colour))


def write_record(record: Record, env: Environment, style: Style) -> None:
    from leafexplain.render.formats import terminal_rich

    terminal_rich.write_record(record, env, style)


def write_records(rows: list[Row], env: Environment, style: Style) -> None:
    from leafexplain.render.formats import terminal_rich

    terminal_rich.write_records(rows, env, style)
