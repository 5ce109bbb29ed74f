"""The one argument router: which command the words name, and the everyday explain parsed without click.

`leafexplain [OPTIONS] [TEXT ...]` means `leafexplain explain [OPTIONS] [TEXT ...]`, and options
given before a command name (`--records DIR show ID`) go to that command. Importing typer and
click and building the command costs more than the rest of a run, and explain runs after every
failing build: its options are parsed here from the rows of `cli/commands.py`, which the typer
app is built from too. Anything this parser is not sure about (`--help`, an unknown option, a
value out of range) is left to click, which gives the proper message.
"""

from __future__ import annotations

from leafexplain.cli.commands import COMMANDS as DECLARED
from leafexplain.cli.commands import DEFAULT_COMMAND, choices, format_aliases, option_rows

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: the everyday path does without it
if TYPE_CHECKING:
    from typing import Any

COMMANDS = frozenset(DECLARED)
# Each of explain's flags, with its destination: `--format` and `-F` are one row.
EXPLAIN_OPTIONS = {
    flag: {**row, "dest": dest} for dest, row in option_rows(DECLARED[DEFAULT_COMMAND]).items() for flag in row["flags"]
}
TAKES_VALUE = frozenset(name for name, spec in EXPLAIN_OPTIONS.items() if spec["kind"] != "flag")


class Route:
    """Where the words go: `fast` is explain with its `options` parsed here; `complete` is
    `__complete KIND` as the completion scripts ask it; `explain` is the explain command alone, in
    click; `app` is the whole app."""

    __slots__ = ("args", "kind", "options")

    def __init__(self, kind: str, args: list[str], options: dict[str, Any] | None = None) -> None:
        self.kind, self.args, self.options = kind, args, options


def route(args: list[str]) -> Route:
    """Where `args` go (`--version` and `--help` alone are answered before routing, in `cli.main`)."""
    if args in (["--help"], ["-h"]) or args[:1] in (["--version"], ["-V"]):
        return Route("app", args)
    if len(args) == 2 and args[0] == "__complete" and not args[1].startswith("-"):
        return Route("complete", args)  # a TAB waiting: answered without building the app
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--":
            break
        if arg.startswith("-") and arg != "-":
            i += 2 if arg in TAKES_VALUE else 1
            continue
        if arg in COMMANDS:
            rest = [*args[:i], *args[i + 1 :]]
            # `leafexplain explain ...` is the explain command alone too; it is only ever parsed by click.
            return Route("explain", rest) if arg == DEFAULT_COMMAND else Route("app", [arg, *rest])
        break
    options = parse_explain(args)
    return Route("explain", args) if options is None else Route("fast", args, options)


def _value(spec: dict[str, Any], raw: str) -> Any:
    """The option's value, or a ValueError when click should judge it."""
    kind = spec["kind"]
    if kind == "choice":
        if raw not in choices(spec):
            if spec["flags"][0] == "--format" and raw in format_aliases():
                return format_aliases()[raw]  # an old name of a format
            raise ValueError(raw)
        return raw
    if kind in ("int", "float"):
        number = int(raw) if kind == "int" else float(raw)
        low, high = spec.get("min"), spec.get("max")
        if (low is not None and number < low) or (high is not None and number > high) or number != number:
            raise ValueError(raw)  # `number != number`: nan, which no comparison refuses; click says why
        return number
    return raw


def parse_explain(args: list[str]) -> dict[str, Any] | None:
    """The explain options given as keyword arguments (the others keep the Options' defaults, or a configuration
    file's), or None to let click parse `args`."""
    values: dict[str, Any] = {}
    text: list[str] = []
    i = 0
    only_text = False
    while i < len(args):
        arg = args[i]
        i += 1
        if only_text or arg == "-" or not arg.startswith("-"):
            if not text and not only_text and arg in COMMANDS:
                return None  # a command's name: not explain's text
            text.append(arg)
            continue
        if arg == "--":
            only_text = True
            continue
        name, has_inline, inline = arg.partition("=")
        spec = EXPLAIN_OPTIONS.get(name)
        if spec is None:
            return None  # --help, --version, a typo: click answers
        if spec["kind"] == "flag":
            if has_inline:
                return None
            values[spec["dest"]] = True
            continue
        if has_inline:
            raw = inline
        elif i < len(args):
            raw, i = args[i], i + 1
        else:
            return None  # an option missing its value
        try:
            value = _value(spec, raw)
        except ValueError:
            return None
        if spec.get("multiple"):
            values[spec["dest"]] = (*values.get(spec["dest"], ()), value)
        else:
            values[spec["dest"]] = value
    values["text"] = tuple(text)
    return values
