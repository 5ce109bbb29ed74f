"""The command tree completion follows, from cli/commands.py: each command's options, arguments and what a value is.

What a value is: a choice completes its choices, a path or a FILE/PATH metavar completes file
names, DIR folders, CMD a command line (the command, then its own completion), and the metavars
ID|SLUG, OWNER/NAME and TAG complete the record values that `leafexplain __complete KIND` prints.
"""

from __future__ import annotations

import re

from leafexplain.cli.commands import COMMANDS, DEFAULT_COMMAND, HELP_OPTION, ROOT, choices, option_rows
from leafexplain.named import NamedTuple

PROG = "leafexplain"
KINDS = ("ids", "slugs", "repos", "tags")  # the record values `leafexplain __complete KIND` prints
MAX_CANDIDATES = 1000
LIST_METAVARS = {"ID|SLUG": ("ids", "slugs"), "OWNER/NAME": ("repos",), "TAG": ("tags",)}
FILE_METAVARS = {"FILE", "PATH"}
DIR_METAVARS = {"DIR"}
COMMAND_METAVAR = re.compile(r"\b(CMD|COMMAND)\b")
WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.+/@-]*")
FLAG = re.compile(r"--?[A-Za-z0-9][A-Za-z0-9-]*")
HEADER = (
    "Written by `leafexplain completion show SHELL` from leafexplain's command table.",
    "Record ids, slugs, repositories and tags are read from the plain lists (one value a line) in",
    "${XDG_CACHE_HOME:-~/.cache}/leafexplain/complete/{ids,slugs,repos,tags}.txt, or, while a list",
    "is missing, from `leafexplain __complete KIND` (which writes the lists).",
)
# Prints the lines that start with $LEAFEXPLAIN_PREFIX, at most MAX_CANDIDATES of them.
AWK_FILTER = (
    '\'BEGIN { p = ENVIRON["LEAFEXPLAIN_PREFIX"]; n = length(p) }'
    f" substr($0, 1, n) == p {{ print; if (++found == {MAX_CANDIDATES}) exit }}'"
)


class Values(NamedTuple):
    """What a value is: `choice`, `file`, `dir`, `list` (record values), `command` (a command line) or `any`."""

    kind: str
    words: tuple[str, ...] = ()

    @property
    def spec(self) -> str:
        return " ".join((self.kind, *self.words))


class Option(NamedTuple):
    flags: tuple[str, ...]
    help: str
    values: Values | None  # None for a flag that takes no value


class Argument(NamedTuple):
    values: Values
    variadic: bool


class Command(NamedTuple):
    path: str  # "" for leafexplain itself, "completion show" for a nested command
    help: str
    options: tuple[Option, ...]
    arguments: tuple[Argument, ...]
    subcommands: tuple[Command, ...]
    default: str | None = None  # the subcommand that takes the words when none is named

    @property
    def name(self) -> str:
        return self.path.rsplit(" ", 1)[-1]

    def walk(self) -> list[Command]:
        found = [self]
        for sub in self.subcommands:
            found += sub.walk()
        return found


def _checked(word: str, pattern: re.Pattern[str]) -> str:
    # The scripts splice these words in unquoted: refuse anything a shell could read otherwise.
    if not pattern.fullmatch(word):
        raise ValueError(f"cannot put {word!r} into a completion script")
    return word


def _short_help(text: str) -> str:
    from leafexplain.cli.help import short_help

    return short_help(text, 80)  # click's limit for a command's help in the completion it offers


def _values(row: dict) -> Values:
    metavar = row.get("metavar")
    if row["kind"] == "choice":
        return Values("choice", tuple(_checked(c, WORD) for c in choices(row)))
    if metavar in LIST_METAVARS:
        lists = LIST_METAVARS[metavar]
        unknown = set(lists) - set(KINDS)
        if unknown:
            raise ValueError(f"`leafexplain __complete` has no list of {sorted(unknown)}")
        return Values("list", lists)
    if metavar and COMMAND_METAVAR.search(metavar):
        return Values("command")
    if metavar in DIR_METAVARS:
        return Values("dir")
    if metavar in FILE_METAVARS or row["kind"] == "path":
        return Values("file")
    return Values("any")


def _option(row: dict) -> Option:
    flags = sorted(row["flags"], key=lambda flag: not flag.startswith("--"))  # long first, each group as declared
    values = None if row["kind"] == "flag" else _values(row)
    return Option(tuple(_checked(f, FLAG) for f in flags), _short_help(row.get("help", "")), values)


def _command(row: dict, path: str) -> Command:
    options = [_option(option) for option in option_rows(row).values()]
    options.append(_option(HELP_OPTION))
    arguments = tuple(Argument(_values(a), bool(a.get("multiple"))) for a in row.get("arguments", {}).values())
    subcommands = tuple(
        _command(sub, f"{path} {_checked(name, WORD)}".strip())
        for name, sub in row.get("commands", {}).items()
        if not sub.get("hidden")
    )
    return Command(path, _short_help(row.get("help", "")), tuple(options), arguments, subcommands)


def command_tree() -> Command:
    """leafexplain's visible commands; bare `leafexplain` also takes every option of its default command."""
    root = _command({**ROOT, "commands": COMMANDS}, "")
    default = next(c for c in root.subcommands if c.name == DEFAULT_COMMAND)
    own = {flag for option in root.options for flag in option.flags}
    borrowed = tuple(o for o in default.options if not own.intersection(o.flags))
    return root._replace(options=root.options + borrowed, default=default.name)


def options_with_values(command: Command) -> list[Option]:
    return [o for o in command.options if o.values is not None]


def header(comment: str) -> list[str]:
    return [f"{comment} {line}" for line in HEADER]
