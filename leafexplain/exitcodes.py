"""Exit codes, one meaning each."""

from enum import IntEnum


class ExitStatus(IntEnum):
    EXPLAINED = 0
    NOTHING_MATCHED = 1
    USAGE_ERROR = 2
    INTERNAL_ERROR = 70  # EX_SOFTWARE: a bug in leafexplain
    BROKEN_PIPE = 141
    INTERRUPTED = 130
    TERMINATED = 143  # SIGTERM (128 + 15, as a shell reports it): ended quietly
