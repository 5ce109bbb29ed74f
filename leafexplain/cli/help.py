"""`leafexplain --help` composed from the command table, laid out as click lays it out at 80 columns or more.

Building the typer app to print it costs ~100 ms; this costs the table. click caps its help at 80
columns, so on any terminal that wide the text is the same (tests/cli/test_fastpath.py compares the
two); a narrower terminal gets click's own. Help texts here are plain words: they are wrapped at
spaces only, where click's textwrap would also break a long hyphenated word.
"""

from __future__ import annotations

from leafexplain.cli.commands import COMMANDS, HELP_OPTION, PROG, ROOT

WIDTH = 78  # click's: the 80 columns it caps help at, less 2
INDENT = "  "
COLUMN_GAP = 2


def _wrap(text: str, width: int, indent: str = "") -> list[str]:
    """Greedy word wrap, as textwrap does for words without hyphens: lines of at most `width` with `indent`."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        if line and len(indent) + len(line) + 1 + len(word) > width:
            lines.append(indent + line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return [*lines, indent + line] if line else lines


def short_help(text: str, limit: int) -> str:
    """click's `make_default_short_help`: the first sentence, or as many words as fit in `limit` and '...'."""
    words = text.split("\n\n", 1)[0].split()
    total = 0
    for i, word in enumerate(words):
        total += len(word) + (i > 0)
        if total > limit:
            break
        if word.endswith("."):
            return " ".join(words[: i + 1])
        if total == limit and i != len(words) - 1:
            break
    else:
        return " ".join(words)
    total += len("...")
    while i > 0:
        total -= len(words[i]) + (i > 0)
        if total <= limit:
            break
        i -= 1
    return " ".join(words[:i]) + "..."


def _definitions(rows: list[tuple[str, str]]) -> list[str]:
    """click's `write_dl` for short first columns: each term, padded to the longest, then its text."""
    column = max(len(term) for term, _ in rows) + COLUMN_GAP
    out: list[str] = []
    for term, text in rows:
        wrapped = _wrap(text, WIDTH - column - len(INDENT))
        out.append(f"{INDENT}{term:<{column}}{wrapped[0]}".rstrip() if wrapped else INDENT + term)
        out += [" " * (column + len(INDENT)) + line for line in wrapped[1:]]
    return out


def _flags(row: dict) -> str:
    """An option's flags as click lists them: the short ones first."""
    return ", ".join(sorted(row["flags"], key=lambda flag: len(flag) - len(flag.lstrip("-"))))


def root_help() -> str:
    """What `leafexplain --help` prints."""
    shown = [(name, command["help"]) for name, command in COMMANDS.items() if not command.get("hidden")]
    limit = WIDTH - 6 - max(len(name) for name, _ in shown)  # click's room for a command's short help
    lines = [
        f"Usage: {PROG} [OPTIONS] COMMAND [ARGS]...",
        "",
        *_wrap(ROOT["help"], WIDTH, INDENT),
        "",
        "Options:",
        *_definitions([(_flags(row), row["help"]) for row in (*ROOT["options"].values(), HELP_OPTION)]),
        "",
        "Commands:",
        *_definitions([(name, short_help(text, limit)) for name, text in shown]),
        "",
        *_wrap(ROOT["epilog"], WIDTH, INDENT),
    ]
    return "\n".join(lines) + "\n"
