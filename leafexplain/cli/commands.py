"""Every command and option of leafexplain, declared once, as data: what the router, the typer app and completion read.

A row says what an option is: its `flags`, its `kind` (flag, text, int, float, path or choice),
its `choices` or bounds, its `help`, and, for the options commands share, its `default`. The
router parses explain's options from it without typer (cli/router.py), `cli/options.py` builds
the typer options from it, the fast `--help` is composed from it (cli/help.py), and shell
completion reads it (integrations/completion/). Nothing here imports anything: the fast paths
(`--help`, the everyday explain, a TAB asking for the scripts) load it first.
"""

from __future__ import annotations

PROG = "leafexplain"
DEFAULT_COMMAND = "explain"
SHELLS = ("bash", "zsh", "fish", "powershell")
# `--format`'s choices are render's formats, asked of leafexplain.render where a value is checked
# (`format_choices`): importing render costs more than the whole fast `--help`.
RENDER_FORMATS = "render's formats"
# The same bounds as env.MIN_WIDTH and env.MAX_WIDTH, which COLUMNS is held to: env is not imported here.
MIN_WIDTH, MAX_WIDTH = 20, 1000

ROOT = {
    "help": "Explain Rust panics and Python tracebacks: pipe a failing run in, read what went wrong and how to fix it.",
    "epilog": "Example: cargo test 2>&1 | leafexplain",
    "options": {
        "version": {"flags": ("--version", "-V"), "kind": "flag", "help": "Print the version and exit."},
    },
}
# click's own, on every command.
HELP_OPTION = {"flags": ("--help", "-h"), "kind": "flag", "help": "Show this message and exit."}

# The options commands share: a command takes them by name (`@shared(...)`) and gets their values as one Options.
SHARED = {
    "fmt": {
        "flags": ("--format", "-F"),
        "kind": "choice",
        "choices": RENDER_FORMATS,
        "default": "auto",
        "help": (
            "Output format (terminal: colour and one screen per error, for a person at a terminal; rich is"
            " its old name); auto is terminal on a terminal, plain otherwise."
        ),
    },
    "color": {
        "flags": ("--color",),
        "kind": "choice",
        "choices": ("auto", "always", "never"),
        "default": "auto",
        "help": "Colour; auto: on a terminal, or where FORCE_COLOR or CLICOLOR_FORCE asks; never if NO_COLOR is set.",
    },
    "width": {
        "flags": ("--width",),
        "kind": "int",
        "min": MIN_WIDTH,
        "max": MAX_WIDTH,
        "default": None,
        "help": "Output width in columns.",
    },
    "threshold": {
        "flags": ("--threshold",),
        "kind": "float",
        "min": 0,
        "max": 100,
        "finite": True,  # click's range check lets nan through (nan < 0 is false)
        "default": None,
        "help": "Fuzzy-match cut-off, 0-100 (default 85).",
    },
    "show_all": {
        "flags": ("--all",),
        "kind": "flag",
        "default": False,
        "help": "Show every candidate at or above the cut-off.",
    },
    "full": {
        "flags": ("--full",),
        "kind": "flag",
        "default": False,
        "help": "Show everything the record has, not one screen per error.",
    },
    "verbose": {
        "flags": ("--verbose", "-v"),
        "kind": "flag",
        "default": False,
        "help": "Also show match details: method, score, characters, id.",
    },
    "records": {
        "flags": ("--records",),
        "kind": "text",
        "multiple": True,
        "metavar": "PATH",
        "default": None,
        "help": "Also load records from this file or folder (repeatable).",
    },
    "no_bundled": {
        "flags": ("--no-bundled",),
        "kind": "flag",
        "default": False,
        "help": "Leave out the records shipped with leafexplain.",
    },
    "no_source": {
        "flags": ("--no-source",),
        "kind": "flag",
        "default": False,
        "help": "Leave out your code and the library source installed here.",
    },
    "root": {
        "flags": ("--root",),
        "kind": "path",
        "metavar": "DIR",
        "default": None,
        "help": "Also resolve relative paths in the error in DIR.",
    },
    "no_redact": {
        "flags": ("--no-redact",),
        "kind": "flag",
        "default": False,
        "help": "Show tokens, keys and passwords in URLs as they came (redacted by default).",
    },
}
OUTPUT = ("fmt", "color", "width")
RECORDS = ("records", "no_bundled")
EXPLAIN = (*OUTPUT, "threshold", "show_all", "full", "verbose", *RECORDS, "no_source", "root", "no_redact")

_CHECK_FORMAT = {"flags": ("--format", "-F"), "kind": "choice", "choices": ("text", "json"), "help": "Output format."}
_RECORD_PATHS = {"kind": "path", "multiple": True}
_FORCE = {"flags": ("--force",), "kind": "flag"}

# Each command, in the order `--help` lists them: its one-line `help` (click's help is its first paragraph),
# the shared options it takes, its own `options` and `arguments` (by the name the command's function gives
# them), its `commands` for a group. `hidden` ones are in neither `--help` nor completion.
COMMANDS = {
    "explain": {
        "help": "Find every panic and traceback in the text and explain each one.",
        "shared": EXPLAIN,
        "options": {
            "file": {
                "flags": ("--file", "-f"),
                "kind": "text",
                "metavar": "FILE",
                "help": "Read this file (- for stdin).",
            }
        },
        "arguments": {"text": {"kind": "text", "multiple": True, "help": "Error text; read from stdin when piped."}},
    },
    "demo": {
        "help": "Explain the example burn panic shipped with leafexplain (a first look, no input needed).",
        "shared": EXPLAIN,
    },
    "run": {
        "help": "Run a command, pass its output through, then explain its errors (on stderr); exit with its code.",
        "shared": EXPLAIN,
        "arguments": {
            "command": {"kind": "text", "multiple": True, "metavar": "-- CMD [ARGS]...", "help": "The command to run."}
        },
    },
    "show": {
        "help": "Show one record in full.",
        "shared": (*OUTPUT, *RECORDS),
        "arguments": {"key": {"kind": "text", "metavar": "ID|SLUG", "help": "A record's id or slug."}},
    },
    "list": {
        "help": "List records: id, repository, error type and message.",
        "shared": (*OUTPUT, *RECORDS),
        "options": {
            "repo": {
                "flags": ("--repo",),
                "kind": "text",
                "metavar": "OWNER/NAME",
                "help": "Only records of this repository.",
            },
            "tag": {"flags": ("--tag",), "kind": "text", "metavar": "TAG", "help": "Only records with this tag."},
        },
    },
    "search": {
        "help": "Search the records by relevance, best first; exit 1 when none is relevant.",
        "shared": (*OUTPUT, *RECORDS),
        "options": {
            "limit": {"flags": ("--limit", "-n"), "kind": "int", "min": 1, "help": "How many results at most."}
        },
        "arguments": {
            "query": {
                "kind": "text",
                "multiple": True,
                "help": "Words to look for in messages, slugs, tags and repositories.",
            }
        },
    },
    "validate": {
        "help": "Check record files against the schema; exit 1 if anything is wrong.",
        "shared": RECORDS,
        "options": {"fmt": _CHECK_FORMAT},
        "arguments": {
            "paths": {**_RECORD_PATHS, "help": "Files or folders to check (default: every record source)."},
        },
    },
    "verify": {
        "help": "Check records against a local copy of their repository: commit, file, message line.",
        "shared": RECORDS,
        "options": {
            "source": {
                "flags": ("--source",),
                "kind": "path",
                "metavar": "DIR",
                "help": "A git checkout, bare git folder or unpacked release.",
            },
            "repo": {
                "flags": ("--repo",),
                "kind": "text",
                "metavar": "OWNER/NAME",
                "help": "Which records DIR is for (default: guessed).",
            },
            "fmt": _CHECK_FORMAT,
        },
        "arguments": {"paths": {**_RECORD_PATHS, "help": "Record files or folders (default: every record source)."}},
    },
    "new": {
        "help": "Scaffold a record from where its message is raised: slug, id and link computed.",
        "options": {
            "repo": {
                "flags": ("--repo",),
                "kind": "text",
                "metavar": "OWNER/NAME",
                "help": "The repository that raises the error.",
            },
            "commit": {
                "flags": ("--commit",),
                "kind": "text",
                "metavar": "SHA",
                "help": "The full commit the facts were read at.",
            },
            "path": {
                "flags": ("--path",),
                "kind": "text",
                "metavar": "FILE",
                "help": "The file, relative to the repository root.",
            },
            "line": {
                "flags": ("--line",),
                "kind": "int",
                "min": 1,
                "help": "The line on which the message literal starts.",
            },
            "message": {
                "flags": ("--message",),
                "kind": "text",
                "help": "The message as a user sees it, values filled in.",
            },
            "pattern": {
                "flags": ("--pattern",),
                "kind": "text",
                "help": "The literal with its placeholders (default: the message).",
            },
            "error_class": {
                "flags": ("--class",),
                "kind": "text",
                "metavar": "NAME",
                "help": "Python exception class (default: a Rust panic).",
            },
            "out": {
                "flags": ("--out",),
                "kind": "path",
                "metavar": "DIR",
                "help": "Write DIR/OWNER/NAME/SLUG.json instead of stdout.",
            },
            "force": {**_FORCE, "help": "Replace a file already at that place."},
        },
    },
    "import": {
        "help": "Validate records and copy them into your records folder, one file each.",
        "options": {
            "force": {**_FORCE, "help": "Replace a record with the same id that differs (else it is skipped)."}
        },
        "arguments": {"paths": {**_RECORD_PATHS, "metavar": "FILE...", "help": "Record files or folders to add."}},
    },
    "update": {
        "help": "Fetch the source lines where each record's error is raised from GitHub, for explain to show offline.",
        "shared": ("no_bundled",),
        "options": {
            "records": {
                "flags": ("--records",),
                "kind": "text",
                "multiple": True,
                "metavar": "PATH",
                "help": "Only the records in this file or folder (repeatable; default: all).",
            },
            "base_url": {
                "flags": ("--base-url",),
                "kind": "text",
                "metavar": "URL",
                "help": "The raw file service (default: $LEAFEXPLAIN_RAW_BASE, else https://raw.githubusercontent.com).",
            },
            "timeout": {
                "flags": ("--timeout",),
                "kind": "float",
                "metavar": "SECONDS",
                "min": 1,
                "max": 600,
                "help": "Time allowed for each file.",
            },
            "jobs": {
                "flags": ("--jobs", "-j"),
                "kind": "int",
                "metavar": "N",
                "min": 1,
                "max": 16,
                "help": "Files fetched at once.",
            },
        },
    },
    "mcp": {
        "help": "Serve explain, show and search to a coding agent over MCP on stdio (needs leafexplain[mcp]).",
        "shared": RECORDS,
    },
    "completion": {
        "help": "Print or install shell completion for bash, zsh, fish or PowerShell.",
        "commands": {
            "show": {
                "help": "Print the completion script for SHELL.",
                "arguments": {
                    "shell": {
                        "kind": "choice",
                        "choices": SHELLS,
                        "metavar": "SHELL",
                        "help": "bash, zsh, fish or powershell.",
                    }
                },
            },
            "install": {
                "help": "Install completion for SHELL (default: your shell) where that shell looks for it.",
                "options": {"force": {**_FORCE, "help": "Replace another file already at that place."}},
                "arguments": {
                    "shell": {
                        "kind": "choice",
                        "choices": SHELLS,
                        "metavar": "[SHELL]",
                        "help": "bash, zsh, fish or powershell (default: from $SHELL).",
                    }
                },
            },
        },
    },
    "__complete": {
        "help": "Print record ids, slugs, repositories or tags, one a line (for shell completion).",
        "hidden": True,
        "shared": RECORDS,
        "arguments": {"kind": {"kind": "text", "help": "ids, slugs, repos or tags"}},
    },
}


def option_rows(command: dict) -> dict[str, dict]:
    """A command's options by destination: its own, then the shared ones it takes, as `--help` lists them."""
    return {**command.get("options", {}), **{dest: SHARED[dest] for dest in command.get("shared", ())}}


def format_choices() -> tuple[str, ...]:
    """`--format`'s choices: render's formats."""
    from leafexplain.render import FORMAT_CHOICES

    return FORMAT_CHOICES


def format_aliases() -> dict[str, str]:
    """Other names `--format` accepts for a format (an old name kept working), if render has any."""
    import leafexplain.render as render

    return dict(getattr(render, "FORMAT_ALIASES", {}))


def choices(row: dict) -> tuple[str, ...]:
    """A choice option's choices (render's formats asked of render)."""
    found = row["choices"]
    return format_choices() if found == RENDER_FORMATS else found
