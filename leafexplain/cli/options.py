"""The options commands share, each declared once; a command takes the ones it names with `@shared(...)`.

`explain`, `run` and `demo` take the explain options, `show`, `list` and `search` the output and
record options. A command receives their values as one `opts: Options`, so that a command that
gains an option (say `run --full`) changes in one word.
"""

from __future__ import annotations

import functools
import inspect
import math
from collections.abc import Callable
from enum import Enum
from pathlib import Path
from typing import Annotated, Any, Optional, TypeVar

import typer

from leafexplain.cli.explain import Options
from leafexplain.env import MAX_WIDTH, MIN_WIDTH
from leafexplain.render import FORMAT_ALIASES, FORMAT_CHOICES

FormatName = Enum("FormatName", {name: name for name in (*FORMAT_CHOICES, *FORMAT_ALIASES)}, type=str)  # type: ignore[misc]


class ColorName(str, Enum):
    auto = "auto"
    always = "always"
    never = "never"


class CheckFormat(str, Enum):
    """`validate` and `verify` write a report of their own: text or JSON."""

    text = "text"
    json = "json"


def finite(value: float | None) -> float | None:
    """A number option's value is a finite number: click's range check lets `nan` through (nan < 0 is false)."""
    if value is not None and not math.isfinite(value):
        raise typer.BadParameter(f"{value} is not a number from 0 to 100.")
    return value


# Each shared option: how typer declares it, and its default.
SHARED: dict[str, tuple[Any, Any]] = {
    "fmt": (
        Annotated[
            FormatName,
            typer.Option(
                "--format",
                "-F",
                help="Output format (terminal: colour and one screen per error, for a person at a terminal; rich is"
                " its old name); auto is terminal on a terminal, plain otherwise.",
            ),
        ],
        FormatName.auto,  # type: ignore[attr-defined]
    ),
    "color": (
        Annotated[
            ColorName, typer.Option("--color", help="Colour; auto uses it on a terminal unless NO_COLOR is set.")
        ],
        ColorName.auto,
    ),
    "width": (
        Annotated[
            Optional[int], typer.Option("--width", min=MIN_WIDTH, max=MAX_WIDTH, help="Output width in columns.")
        ],
        None,
    ),
    "threshold": (
        Annotated[
            Optional[float],
            typer.Option(
                "--threshold", min=0, max=100, callback=finite, help="Fuzzy-match cut-off, 0-100 (default 85)."
            ),
        ],
        None,
    ),
    "show_all": (Annotated[bool, typer.Option("--all", help="Show every candidate at or above the cut-off.")], False),
    "full": (
        Annotated[bool, typer.Option("--full", help="Show everything the record has, not one screen per error.")],
        False,
    ),
    "verbose": (
        Annotated[
            bool, typer.Option("--verbose", "-v", help="Also show match details: method, score, characters, id.")
        ],
        False,
    ),
    "records": (
        Annotated[
            Optional[list[str]],
            typer.Option("--records", metavar="PATH", help="Also load records from this file or folder (repeatable)."),
        ],
        None,
    ),
    "no_bundled": (
        Annotated[bool, typer.Option("--no-bundled", help="Leave out the records shipped with leafexplain.")],
        False,
    ),
    "no_source": (
        Annotated[bool, typer.Option("--no-source", help="Leave out your code and the library source installed here.")],
        False,
    ),
    "root": (
        Annotated[
            Optional[Path],
            typer.Option("--root", metavar="DIR", help="Also resolve relative paths in the error in DIR."),
        ],
        None,
    ),
    "no_redact": (
        Annotated[
            bool,
            typer.Option(
                "--no-redact", help="Show tokens, keys and passwords in URLs as they came (redacted by default)."
            ),
        ],
        False,
    ),
}
OUTPUT = ("fmt", "color", "width")
RECORDS = ("records", "no_bundled")
EXPLAIN = (*OUTPUT, "threshold", "show_all", "full", "verbose", *RECORDS, "no_source", "root", "no_redact")

Command = TypeVar("Command", bound=Callable[..., Any])


def options(values: dict[str, Any]) -> Options:
    """The shared options' values as typer hands them over (enums, lists, None), as one Options."""
    plain = {name: value.value if isinstance(value, Enum) else value for name, value in values.items()}
    if "records" in plain:
        plain["records"] = tuple(plain["records"] or ())
    return Options(**plain)


def shared(*names: str) -> Callable[[Command], Command]:
    """Add the shared options `names` to a command, after its own parameters; it gets them as `opts`."""

    def decorate(command: Command) -> Command:
        own = [p for p in inspect.signature(command, eval_str=True).parameters.values() if p.name != "opts"]
        added = [
            inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=SHARED[name][1], annotation=SHARED[name][0])
            for name in names
        ]

        @functools.wraps(command)
        def with_options(*args: Any, **kwargs: Any) -> Any:
            return command(*args, opts=options({name: kwargs.pop(name) for name in names}), **kwargs)

        with_options.__signature__ = inspect.Signature([*own, *added])  # type: ignore[attr-defined]
        with_options.__annotations__ = {p.name: p.annotation for p in (*own, *added)}
        return with_options  # type: ignore[return-value]

    return decorate
