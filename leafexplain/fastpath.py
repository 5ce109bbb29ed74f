"""Parse the everyday `leafexplain [OPTIONS] [TEXT ...]` without importing typer or click.

Importing typer and click and building the command costs more than the rest of a run, and
explain runs after every failing build. The options come from `_cli_table.py`, generated
from the typer app, so there is one definition of them. Anything this parser is not sure
about — a subcommand, `--help`, an unknown option, a value out of range, no input on a
terminal — is left to the full CLI, which gives the proper message.
"""

from __future__ import annotations

from typing import Any

from leafexplain._cli_table import COMMANDS, EXPLAIN_OPTIONS

_DEFAULTS: dict[str, Any] = {"fmt": "auto", "color": "auto", "records": ()}


def _value(spec: dict[str, Any], raw: str) -> Any:
    """The option's value, or a ValueError when the full CLI should judge it."""
    kind = spec["kind"]
    if kind == "choice":
        if raw not in spec["choices"]:
            raise ValueError(raw)
        return raw
    if kind in ("int", "float"):
        number = int(raw) if kind == "int" else float(raw)
        low, high = spec.get("min"), spec.get("max")
        if (low is not None and number < low) or (high is not None and number > high):
            raise ValueError(raw)
        return number
    return raw


def parse_explain(args: list[str]) -> dict[str, Any] | None:
    """The explain options as keyword arguments, or None to let the full CLI parse `args`."""
    values: dict[str, Any] = dict(_DEFAULTS)
    text: list[str] = []
    i = 0
    only_text = False
    while i < len(args):
        arg = args[i]
        i += 1
        if only_text or arg == "-" or not arg.startswith("-"):
            if not text and not only_text and arg in COMMANDS:
                return None  # a subcommand
            text.append(arg)
            continue
        if arg == "--":
            only_text = True
            continue
        name, has_inline, inline = arg.partition("=")
        spec = EXPLAIN_OPTIONS.get(name)
        if spec is None:
            return None  # --help, --version, a typo: the full CLI answers
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
        if spec["multiple"]:
            values[spec["dest"]] = (*values[spec["dest"]], value)
        else:
            values[spec["dest"]] = value
    values["text"] = tuple(text)
    return values
