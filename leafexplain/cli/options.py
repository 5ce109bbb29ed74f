"""The typer options, arguments and commands, built from the rows of cli/commands.py; `@shared(...)` adds shared ones.

`explain`, `run` and `demo` take the explain options, `show`, `list` and `search` the output and
record options. A command receives their values as one `opts: Options`, so that a command that
gains an option (say `run --full`) changes in one word. A command's own options and arguments
are its parameters, declared `Annotated[type, option("list", dest="repo")]`: the flags, help and
bounds come from the table, the type and default are the function's.
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

from leafexplain.cli.commands import COMMANDS, EXPLAIN, OUTPUT, RECORDS, RENDER_FORMATS, format_aliases, format_choices
from leafexplain.cli.commands import SHARED as SHARED_ROWS
from leafexplain.cli.explain import Options

__all__ = ["EXPLAIN", "OUTPUT", "RECORDS", "CheckFormat", "argument", "choice_enum", "declared", "option", "shared"]

Row = dict[str, Any]
_TYPES = {"flag": bool, "text": str, "int": int, "float": float, "path": Path}


@functools.cache
def choice_enum(name: str, names: tuple[str, ...]) -> type[Enum]:
    """The Enum typer needs for a choice option: one member a choice."""
    return Enum(name, {choice: choice for choice in names}, type=str)  # type: ignore[return-value]


FormatName = choice_enum("FormatName", (*format_choices(), *format_aliases()))
ColorName = choice_enum("ColorName", SHARED_ROWS["color"]["choices"])
# `validate` and `verify` write a report of their own: text or JSON.
CheckFormat = choice_enum("CheckFormat", COMMANDS["validate"]["options"]["fmt"]["choices"])


def finite(row: Row) -> Callable[[float | None], float | None]:
    """A check that a number option's value is a finite number: click's range check lets `nan` through
    (nan < 0 is false)."""

    def check(value: float | None) -> float | None:
        if value is not None and not math.isfinite(value):
            raise typer.BadParameter(f"{value} is not a number from {row['min']} to {row['max']}.")
        return value

    return check


def _value_type(row: Row, enum_name: str) -> Any:
    """The Python type typer reads a row's values as."""
    if row["kind"] == "choice":
        return FormatName if row["choices"] == RENDER_FORMATS else choice_enum(enum_name, row["choices"])
    value = _TYPES[row["kind"]]
    return list[value] if row.get("multiple") else value  # type: ignore[valid-type]


def _typer_option(row: Row) -> Any:
    bounds = {key: row[key] for key in ("min", "max") if key in row}
    return typer.Option(
        *row["flags"],
        metavar=row.get("metavar"),
        help=row["help"],
        callback=finite(row) if row.get("finite") else None,
        **bounds,
    )


def _shared(dest: str) -> tuple[Any, Any]:
    """How typer declares the shared option `dest`, and its default."""
    row = SHARED_ROWS[dest]
    value_type = _value_type(row, dest)
    if row["default"] is None:
        value_type = Optional[value_type]
    default = value_type(row["default"]) if row["kind"] == "choice" else row["default"]  # an Enum's member
    return Annotated[value_type, _typer_option(row)], default


# Each shared option: how typer declares it, and its default.
SHARED: dict[str, tuple[Any, Any]] = {dest: _shared(dest) for dest in SHARED_ROWS}


def _row(path: tuple[str, ...]) -> Row:
    """The table's row for command `path` ("completion", "show" for a subcommand)."""
    command = COMMANDS[path[0]]
    for name in path[1:]:
        command = command["commands"][name]
    return command


def declared(*path: str) -> dict[str, Any]:
    """What `@app.command(...)` takes from the table: the command's name, help, and whether it is hidden."""
    row = _row(path)
    return {"name": path[-1], "help": row["help"], "hidden": bool(row.get("hidden"))}


def option(*path: str, dest: str) -> Any:
    """The typer option `dest` of command `path`, from its row (its type and default are the parameter's)."""
    return _typer_option(_row(path)["options"][dest])


def argument(*path: str, name: str) -> Any:
    """The typer argument `name` of command `path`, from its row."""
    row = _row(path)["arguments"][name]
    # A choice's default (None: ask $SHELL) is not worth a "[default: None]".
    return typer.Argument(metavar=row.get("metavar"), help=row["help"], show_default=row["kind"] != "choice")


Command = TypeVar("Command", bound=Callable[..., Any])


def options(values: dict[str, Any]) -> Options:
    """The shared options' values as typer hands them over (enums, lists, None), as one Options."""
    plain = {name: value.value if isinstance(value, Enum) else value for name, value in values.items()}
    if plain.get("fmt") in format_aliases():
        plain["fmt"] = format_aliases()[plain["fmt"]]  # an old name of a format
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
