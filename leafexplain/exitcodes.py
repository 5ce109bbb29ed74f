"""Exit codes, one meaning each (kept apart from the models: the guard around `--version` needs them, cheaply)."""


class ExitStatus:
    """The codes as plain ints: an IntEnum would cost every run a fifth of a millisecond to build."""

    EXPLAINED = 0
    NOTHING_MATCHED = 1  # errors found, none that a record explains; `validate`/`verify`: problems found
    USAGE_ERROR = 2
    INTERNAL_ERROR = 70  # EX_SOFTWARE: a bug in leafexplain
    OUTPUT_ERROR = 74  # EX_IOERR: the output could not be written (a full disk, a read-only or closed output)
    BROKEN_PIPE = 141
    INTERRUPTED = 130
    TERMINATED = 143  # SIGTERM (128 + 15, as a shell reports it): ended quietly


# What each code means, for the man page's EXIT STATUS (cli/manpage.py) and the README's table.
MEANINGS = {
    ExitStatus.EXPLAINED: "At least one error was explained, or there was no error in the input.",
    ExitStatus.NOTHING_MATCHED: (
        "Errors were found and none matched a record (show, list, search: nothing found; validate, verify:"
        " problems found; update: some records got no source lines)."
    ),
    ExitStatus.USAGE_ERROR: (
        "Usage or input error: a bad option, a bad configuration file, an unreadable file, no input."
    ),
    ExitStatus.INTERNAL_ERROR: "A bug in leafexplain (one line on stderr; LEAFEXPLAIN_DEBUG=1 shows the traceback).",
    ExitStatus.OUTPUT_ERROR: "The output could not be written (a full disk, a read-only or failing output).",
    ExitStatus.INTERRUPTED: "Interrupted (Ctrl-C).",
    ExitStatus.BROKEN_PIPE: "stdout was closed early (| head).",
    ExitStatus.TERMINATED: "Terminated (SIGTERM), quietly.",
}
