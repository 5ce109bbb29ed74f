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
