"""Run the command so that the user never sees a Python traceback: exit codes for every ending."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable

from leafexplain.exitcodes import ExitStatus


def run_guarded(call: Callable[[], int | None]) -> int:
    """The call's exit code; Ctrl-C, a closed stdout and our own bugs mapped to codes of their own."""
    from leafexplain.faults import Terminated, end_quietly_on_sigterm

    end_quietly_on_sigterm()
    try:
        return int(call() or 0)
    except KeyboardInterrupt:
        return ExitStatus.INTERRUPTED
    except Terminated:
        return ExitStatus.TERMINATED
    except BrokenPipeError:
        # The reader went away (`| head`): stop quietly, and keep Python from complaining at exit.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return ExitStatus.BROKEN_PIPE
    except Exception as exc:  # a bug of ours: one line for the user, the traceback on request
        if os.environ.get("LEAFEXPLAIN_DEBUG"):
            raise
        from leafexplain.sources import printable

        sys.stderr.write(
            f"leafexplain: internal error: {printable(f'{type(exc).__name__}: {exc}')} "
            "(set LEAFEXPLAIN_DEBUG=1 for details)\n"
        )
        return ExitStatus.INTERNAL_ERROR
