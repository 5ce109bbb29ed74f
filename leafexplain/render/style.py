"""How to show it: the Style a command asks for (format, colour, width, how much of each record)."""

from __future__ import annotations

from leafexplain.env import ColorChoice
from leafexplain.models import Record
from leafexplain.named import NamedTuple

Row = tuple[Record, "float | None"]  # a record and its search score, for `list` and `search`


class Style(NamedTuple):
    """How to show it: the format, colour, width (None: the terminal's), and how much of each record."""

    format: str = "auto"  # a name of FORMAT_CHOICES, or an alias of one (`rich`)
    color: ColorChoice = "auto"
    width: int | None = None
    full: bool = False  # the long view: everything the record has, instead of one screen per error
    show_all: bool = False  # also every other record at or above the cut-off
    verbose: bool = False  # also what the matcher measured: method, score, matched characters, record id
    full_hint: bool = True  # `or add --full` after the show command: not where no command line was typed (a hook)
    input_name: str | None = None  # the file the input was read from (`--file`): where an error with no frame lies
