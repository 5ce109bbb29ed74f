"""The man page, leafexplain(1), written as roff from the command table that `--help` and completion read.

`python -m leafexplain.cli.manpage > man/leafexplain.1` writes it; the file is committed (hatchling
installs it as share/man/man1/leafexplain.1: pyproject's shared-data) and tests/cli/test_manpage.py
checks that it is what this module writes now. NAME, SYNOPSIS and DESCRIPTION come from the table's
root, COMMANDS and OPTIONS from its rows (each option once, with the commands that take it), EXIT
STATUS from exitcodes.py; ENVIRONMENT, FILES and EXAMPLES are written here.
"""

from __future__ import annotations

import sys

from leafexplain.cli.commands import COMMANDS, HELP_OPTION, PROG, RENDER_FORMATS, ROOT, SHARED, choices
from leafexplain.exitcodes import MEANINGS
from leafexplain.version import __version__

ENVIRONMENT = (
    ("NO_COLOR", "Set to anything but the empty string: no colour (no-color.org). Wins over FORCE_COLOR."),
    ("FORCE_COLOR", "Set to anything but the empty string: colour, on a pipe too (force-color.org)."),
    ("CLICOLOR_FORCE", "Set to anything but 0: colour, on a pipe too. --color always|never wins over all three."),
    ("COLUMNS", "The output width when --width is not given (held to 20-1000)."),
    ("LEAFEXPLAIN_RECORDS", "More record files or folders, separated by ':', loaded after your data folder."),
    ("LEAFEXPLAIN_DEBUG", "Set: show leafexplain's own traceback instead of one line when it fails."),
    ("LEAFEXPLAIN_RAW_BASE", "The raw file service `update` fetches from (default https://raw.githubusercontent.com)."),
    ("XDG_CONFIG_HOME", "Where your configuration file is (default ~/.config)."),
    ("XDG_DATA_HOME", "Where your records folder is (default ~/.local/share)."),
    ("XDG_CACHE_HOME", "Where the record index, the source cache and the completion lists are (default ~/.cache)."),
    ("GITHUB_ACTIONS", "true: `run` also writes annotations on stdout and a summary to $GITHUB_STEP_SUMMARY."),
    ("GITHUB_WORKSPACE, CI_PROJECT_DIR", "The folder paths are shown relative to (default: the current folder)."),
    ("FORCE_HYPERLINK", "1 or 0: whether the terminal shows links (OSC 8), whatever it is."),
)
FILES = (
    ("pyproject.toml", "The [tool.leafexplain] table of the nearest one, from the current folder up: defaults."),
    ("$XDG_CONFIG_HOME/leafexplain/config.toml", "Your defaults, below the project's (keys: the long options)."),
    ("$XDG_DATA_HOME/leafexplain/records/", "Your records (`leafexplain import` copies records there)."),
    ("$XDG_CACHE_HOME/leafexplain/", "The record index, the source cache `update` fills, the completion lists."),
)
EXAMPLES = (
    ("cargo test 2>&1 | leafexplain", "Explain a failing test run."),
    ("leafexplain run -- python train.py", "Run a command, pass its output through, explain its errors."),
    ("cargo leafexplain test", "The same for cargo, as a cargo subcommand."),
    ("leafexplain --file build.log --format json", "Explain a kept log, as JSON."),
    ("leafexplain run --format concise -- cargo build", "One file:line:col line per error, for an editor."),
    ("leafexplain show 745587749477e02c", "Show one record in full."),
)


def roff(text: str) -> str:
    """Text as roff reads it literally: backslashes escaped, a leading `.` or `'` kept from being a request,
    hyphens as minus signs (what a user types)."""
    text = text.replace("\\", "\\e").replace("-", "\\-")
    return "\\&" + text if text[:1] in (".", "'") else text


def _flags(row: dict) -> str:
    flags = sorted(row["flags"], key=lambda flag: len(flag) - len(flag.lstrip("-")))
    value = "" if row["kind"] == "flag" else f" \\fI{roff(_metavar(row))}\\fR"
    return ", ".join(f"\\fB{roff(flag)}\\fR" for flag in flags) + value


def _metavar(row: dict) -> str:
    if row.get("metavar"):
        return row["metavar"]
    if row["kind"] == "choice":
        return "FORMAT" if row["choices"] == RENDER_FORMATS else "|".join(choices(row))
    return {"int": "N", "float": "N", "path": "PATH"}.get(row["kind"], "TEXT")


def _arguments(command: dict) -> str:
    words = []
    for name, row in command.get("arguments", {}).items():
        word = row.get("metavar") or name.upper() + ("..." if row.get("multiple") else "")
        words.append(f"\\fI{roff(word)}\\fR")
    return " ".join(words)


def _option(row: dict, extra: str = "") -> list[str]:
    if row["kind"] == "choice" and row["choices"] == RENDER_FORMATS:
        extra = f" FORMAT is one of: {', '.join(choices(row))}.{extra}"
    return [".TP", _flags(row), roff(row["help"] + extra)]


def _commands() -> list[str]:
    lines = [".SH COMMANDS"]
    for name, command in COMMANDS.items():
        if command.get("hidden"):
            continue
        for sub, row in (command.get("commands") or {None: command}).items():
            title = f"\\fB{roff(name)}\\fR" + (f" \\fB{roff(sub)}\\fR" if sub else "")
            lines += [".TP", f"{title} [\\fIOPTIONS\\fR] {_arguments(row)}".rstrip(), roff(row["help"])]
            own = row.get("options", {})
            shared = row.get("shared", ())
            if own or shared:
                lines.append(".RS")
                lines += [line for option in own.values() for line in _option(option)]
                if shared:
                    named = ", ".join(f"\\fB{roff(SHARED[dest]['flags'][0])}\\fR" for dest in shared)
                    lines += [".TP", "Shared options", f"{named} (see OPTIONS)."]
                lines.append(".RE")
    return lines


def _options() -> list[str]:
    lines = [".SH OPTIONS", "The options the commands share (each command's own are under COMMANDS):"]
    for dest, row in SHARED.items():
        taking = [
            name
            for name, command in COMMANDS.items()
            if dest in command.get("shared", ()) and not command.get("hidden")
        ]
        default = row.get("default")
        said = f" Default: {default}." if default not in (None, False, ()) else ""
        lines += _option(row, f"{said} ({', '.join(taking)})")
    for row in (*ROOT["options"].values(), HELP_OPTION):
        lines += _option(row)
    return lines


def _table(title: str, rows: tuple[tuple[str, str], ...], bold: bool = True) -> list[str]:
    lines = [f".SH {title}"]
    for term, text in rows:
        lines += [".TP", f"\\fB{roff(term)}\\fR" if bold else roff(term), roff(text)]
    return lines


def _summary(text: str) -> str:
    """The root help's first clause, as NAME's one line starts it: `explain Rust panics and ...`."""
    first = text.split(":")[0].rstrip(".")
    return first[:1].lower() + first[1:]


def manpage() -> str:
    """leafexplain.1, as roff."""
    lines = [
        f'.TH {PROG.upper()} 1 "" "{PROG} {roff(__version__)}" "User Commands"',
        ".SH NAME",
        f"{PROG} \\- {roff(_summary(ROOT['help']))}",
        ".SH SYNOPSIS",
        f"\\fB{PROG}\\fR [\\fIOPTIONS\\fR] [\\fITEXT\\fR...]",
        ".br",
        f"\\fB{PROG}\\fR \\fICOMMAND\\fR [\\fIOPTIONS\\fR] [\\fIARGS\\fR...]",
        ".br",
        f"\\fBcargo {PROG}\\fR [\\fIOPTIONS\\fR] \\fICARGO\\-COMMAND\\fR [\\fIARGS\\fR...]",
        ".SH DESCRIPTION",
        roff(ROOT["help"]),
        ".PP",
        roff(
            f"`{PROG} [OPTIONS] [TEXT]` is `{PROG} explain`: it reads the text given, else --file, else stdin, finds"
            " every Rust panic, rustc compile error and Python traceback in it, and explains each from the records."
            f" The options can also be set in a configuration file (FILES); `cargo {PROG} COMMAND` is"
            f" `{PROG} run -- cargo COMMAND`."
        ),
        *_commands(),
        *_options(),
        *_table("EXIT STATUS", tuple((str(code), meaning) for code, meaning in MEANINGS.items())),
        *_table("ENVIRONMENT", ENVIRONMENT),
        *_table("FILES", FILES),
        *_table("EXAMPLES", EXAMPLES),
        ".SH SEE ALSO",
        "\\fBcargo\\fR(1), \\fBpython\\fR(1); README.md and docs/ in leafexplain's source for every format, the"
        " record schema and the configuration.",
    ]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.stdout.write(manpage())
