"""The configuration files: `[tool.leafexplain]` in the nearest pyproject.toml and the user's config.toml, as defaults.

Their keys are the shared options' long names (`format`, `color`, `width`, `no-source`, ...: the
rows of `cli/commands.py`'s SHARED, so that a new option is a key too), checked as the command line
checks them. The order (docs/configuration.md): flags, then the environment, then the project's
file, then the user's. A value given on the command line replaces the file's (the files' values are
the defaults: click's `default_map`, and the fast path's Options), and what the environment says
beats a file's `color` (the colour variables) and `width` (COLUMNS). A bad file, key or value is
`ConfigError`: one line naming the file and the key, exit 2 (cli/guard.py).

Start-up: where there is no file this costs one failed open per folder from the current one up to
the first pyproject.toml, and one for the user's file. A pyproject.toml is parsed (tomllib, or
tomli on Python 3.10) only when its text holds a `[tool.leafexplain]` table or a `tool.leafexplain.`
key: most projects' files do not, and tomllib is 2 ms to import.
"""

from __future__ import annotations

import os
import re

from leafexplain.cli.commands import COMMANDS, SHARED, choices, format_aliases
from leafexplain.env import columns_from, config_home, home
from leafexplain.regex import lazy_regex
from leafexplain.safeio import read_regular

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: the everyday path does without it
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

PROJECT_FILE = "pyproject.toml"
TABLE = "tool.leafexplain"
MAX_BYTES = 1 << 20  # a configuration file is a few lines; a bigger one is not read whole
# Each key a file may hold: a shared option's long flag without its dashes ("--no-source" -> "no-source").
KEYS = {row["flags"][0].lstrip("-"): dest for dest, row in SHARED.items()}
# `[tool.leafexplain]` or a `tool.leafexplain.KEY` line: a file without either is not parsed (nor tomllib imported).
_OUR_TABLE = lazy_regex(r"""^[ \t]*\[?[ \t]*tool[ \t]*\.[ \t]*["']?leafexplain""", re.MULTILINE)


class ConfigError(Exception):
    """A configuration file that cannot be used: its path, the key (if one is at fault) and why, on one line."""

    def __init__(self, path: str, key: str | None, why: str) -> None:
        super().__init__(f"{path}: {f'{key}: ' if key else ''}{why}")


def user_file(environ: Mapping[str, str]) -> str:
    """`$XDG_CONFIG_HOME/leafexplain/config.toml` (~/.config/leafexplain/config.toml)."""
    return os.path.join(config_home(environ), "leafexplain", "config.toml")


def settings(environ: Mapping[str, str], cwd: str | None = None) -> dict[str, Any]:
    """The files' values by option destination (`fmt`, `no_source`, ...): the project's over the user's, less
    what the environment decides."""
    found: dict[str, Any] = {}
    user_path = user_file(environ)
    user = _read(user_path)
    if user is not None:
        found.update(_checked(user_path, _parsed(user_path, user), "", environ))
    project = _nearest_project(cwd or os.getcwd())
    if project is not None:
        path, text = project
        if _OUR_TABLE.search(text):
            table = _parsed(path, text).get("tool", {}).get("leafexplain", {})
            if not isinstance(table, dict):
                raise ConfigError(path, f"[{TABLE}]", "is not a table")
            found.update(_checked(path, table, f"[{TABLE}] ", environ))
    if "color" in found and _colour_said(environ):
        del found["color"]  # NO_COLOR, FORCE_COLOR or CLICOLOR_FORCE: the environment beats a file
    if "width" in found and columns_from(environ) is not None:
        del found["width"]  # COLUMNS, likewise
    return found


def default_map(found: Mapping[str, Any], command: str | None) -> dict[str, Any]:
    """click's `default_map` for the whole app (None) or one command: each command gets the values of the shared
    options it takes (`validate` has a `--format` of its own, which no file sets)."""
    if command is not None:
        return {dest: value for dest, value in found.items() if dest in COMMANDS[command].get("shared", ())}
    return {name: default_map(found, name) for name, row in COMMANDS.items() if row.get("shared")}


def _colour_said(environ: Mapping[str, str]) -> bool:
    from leafexplain.env import Environment

    return Environment(environ=environ).color_from_variables is not None


def _read(path: str) -> str | None:
    """The file's text, None when there is no file there."""
    try:
        data = read_regular(path, MAX_BYTES)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as exc:
        raise ConfigError(path, None, f"cannot read it: {exc.strerror or exc}") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise ConfigError(path, None, "not UTF-8 text (TOML is)") from None


def _nearest_project(start: str) -> tuple[str, str] | None:
    """The first pyproject.toml from `start` up, and its text; the search stops at the first one found."""
    folder = os.path.abspath(start)
    while True:
        path = os.path.join(folder, PROJECT_FILE)
        text = _read(path)
        if text is not None:
            return path, text
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent


def _parsed(path: str, text: str) -> dict[str, Any]:
    try:
        import tomllib  # only when a file is there: 2 ms to import
    except ImportError:  # Python 3.10
        import tomli as tomllib  # type: ignore[no-redef]
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(path, None, f"not valid TOML: {exc}") from None


def _checked(path: str, table: Mapping[str, Any], prefix: str, environ: Mapping[str, str]) -> dict[str, Any]:
    """The table's values by destination, each checked as its option's row says; a relative path is taken from
    the file's folder, and `~/` is the home folder."""
    values: dict[str, Any] = {}
    for key, value in table.items():
        dest = KEYS.get(key)
        if dest is None:
            raise ConfigError(path, f"{prefix}{key}", f"not a setting (the settings: {', '.join(KEYS)})")

        def place(given: str) -> str:
            if given == "~" or given.startswith("~/"):
                return os.path.normpath(os.path.join(home(environ), given[2:]))
            return os.path.normpath(os.path.join(os.path.dirname(path), given))

        values[dest] = _value(SHARED[dest], value, place, lambda why, k=key: (path, prefix + k, why))
    return values


def _value(row: dict, value: Any, place: Any, fault: Any) -> Any:
    """`value` as the option takes it (a path given to `place`), or ConfigError saying what the option accepts."""
    kind = row["kind"]
    if kind == "flag":
        if isinstance(value, bool):
            return value
        raise ConfigError(*fault("must be true or false"))
    if kind == "choice":
        allowed = (*choices(row), *format_aliases()) if row["flags"][0] == "--format" else choices(row)
        if isinstance(value, str) and value in allowed:
            return format_aliases().get(value, value) if row["flags"][0] == "--format" else value
        raise ConfigError(*fault(f"{value!r} is not one of {', '.join(choices(row))}"))
    if kind in ("int", "float"):
        low, high = row.get("min"), row.get("max")
        number_types = (int,) if kind == "int" else (int, float)
        if (
            isinstance(value, bool)
            or not isinstance(value, number_types)
            or value != value  # nan
            or (low is not None and value < low)
            or (high is not None and value > high)
        ):
            bounds = f"from {low} to {high}" if high is not None else f"at least {low}"
            raise ConfigError(*fault(f"{value!r} is not {'a whole number' if kind == 'int' else 'a number'} {bounds}"))
        return value
    if row.get("multiple"):  # --records: one path or a list of them
        items = [value] if isinstance(value, str) else value
        if not isinstance(items, list) or not items or not all(isinstance(item, str) and item for item in items):
            raise ConfigError(*fault("must be a path or a list of paths"))
        return tuple(place(item) for item in items)
    if not isinstance(value, str) or not value:
        raise ConfigError(*fault("must be a string"))
    return place(value) if kind == "path" else value
