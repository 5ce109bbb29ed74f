"""The one error guard: every way a command can end mapped to its exit code, never a Python traceback.

Ctrl-C, SIGTERM, a reader that goes away, click's usage errors (which may quote hostile
arguments) and our own bugs each end the run with a code of their own and at most one line.
"""

from __future__ import annotations

import errno
import io
import os
import sys
from collections.abc import Callable

try:  # the C module that `signal` wraps in enums: the same calls, without building those enums at every start
    import _signal as signal
except ImportError:  # another Python
    import signal

from leafexplain.cli.config import ConfigError
from leafexplain.env import Environment
from leafexplain.exitcodes import ExitStatus

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: the everyday path does without it
if TYPE_CHECKING:
    from typing import Any


class Terminated(BaseException):
    """SIGTERM arrived: unwind (temporary files are removed on the way), then exit 143."""


def _raise_terminated(signum: int, frame: object) -> None:
    raise Terminated


def end_quietly_on_sigterm() -> None:
    """Turn SIGTERM into `Terminated`, so that it ends the run like Ctrl-C does: cleanly, no traceback.

    Only the main thread may set handlers; a handler someone else set (an embedding program) stays.
    """
    if signal.getsignal(signal.SIGTERM) in (signal.SIG_DFL, None):
        try:
            signal.signal(signal.SIGTERM, _raise_terminated)
        except ValueError:  # not the main thread
            pass


def run_guarded(call: Callable[[], int | None], env: Environment) -> int:
    """The call's exit code; Ctrl-C, SIGTERM, a closed stdout and our own bugs mapped to codes of their own."""
    if env.is_process:
        end_quietly_on_sigterm()
    try:
        return int(call() or 0)
    except ConfigError as exc:  # a configuration file's bad key or value: one line naming the file and the key
        from leafexplain.render import warn

        warn(env, str(exc))
        return ExitStatus.USAGE_ERROR
    except KeyboardInterrupt:
        return ExitStatus.INTERRUPTED
    except Terminated:
        return ExitStatus.TERMINATED
    except BrokenPipeError:
        return _reader_gone(env)
    except OSError as exc:
        if exc.errno in WRITE_ERRNOS:
            return cannot_write(env, exc)
        return _internal_error(env, exc)
    except Exception as exc:  # a bug of ours: one line for the user, the traceback on request
        return _internal_error(env, exc)


def _internal_error(env: Environment, exc: Exception) -> int:
    if env.debug:
        raise exc
    from leafexplain.render import internal_error

    internal_error(env, exc)
    return ExitStatus.INTERNAL_ERROR


# What writing to a full disk, a read-only descriptor or a device that fails gives: the output is lost, not a bug.
# A non-blocking output that is full (EAGAIN: a parent set O_NONBLOCK on a shared descriptor) is lost output too.
WRITE_ERRNOS = frozenset(
    getattr(errno, name)
    for name in ("ENOSPC", "EDQUOT", "EFBIG", "EIO", "EBADF", "EROFS", "EAGAIN")
    if hasattr(errno, name)
)


def cannot_write(env: Environment, exc: OSError) -> int:
    """The output could not be written (`>/dev/full`, a read-only descriptor): one line on stderr if it can
    take one, and 74 (EX_IOERR)."""
    settle(env)  # what is still buffered for the failing stream goes nowhere, once
    try:
        from leafexplain.render import warn

        warn(env, f"cannot write the output: {exc.strerror or exc}")
    except OSError:  # stderr fails too: the code says it
        pass
    return ExitStatus.OUTPUT_ERROR


def finish_output(env: Environment, code: int) -> int:
    """The run's code once its output is all written: a reader that went away at the last flush ends it as the
    guard does (141, quietly), and nothing is left in a buffer for the interpreter's exit to write."""
    failed = settle(env)
    if isinstance(failed, BrokenPipeError):
        return _reader_gone(env)
    if failed is not None:
        return cannot_write(env, failed)
    return code


def settle(env: Environment) -> OSError | None:
    """Our output flushed. A stream that cannot take it (a reader gone, a full disk, a read-only descriptor) is
    pointed at /dev/null, so that what its buffer holds never fails again on the way out; its error is returned."""
    failed = None
    for stream in (env.stdout, env.stderr):
        try:
            stream.flush()
        except OSError as exc:
            failed = failed or exc
            try:
                os.dup2(os.open(os.devnull, os.O_WRONLY), stream.fileno())
                stream.flush()
            except (OSError, ValueError):  # a stream in memory, or one with no descriptor
                pass
    return failed


def _reader_gone(env: Environment) -> int:
    """The reader went away (`| head`): stop quietly, and keep Python from complaining at exit."""
    if env.is_process:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    return ExitStatus.BROKEN_PIPE


def invoke_click(command: Any, args: list[str], env: Environment, default_map: dict[str, Any] | None = None) -> int:
    """Run a click command on `args` (its defaults `default_map`'s where it has one: the configuration files'):
    click's own endings (usage errors, aborts, a closed pipe) as our codes.

    click writes help and messages to sys.stdout and sys.stderr: those are the Environment's while it runs.
    """
    import contextlib

    import click

    try:
        with contextlib.redirect_stdout(env.stdout), contextlib.redirect_stderr(env.stderr):
            try:
                return (
                    command.main(
                        args=args, prog_name="leafexplain", standalone_mode=False, obj=env, default_map=default_map
                    )
                    or 0
                )
            except SystemExit:
                if isinstance(sys.stdout, click.utils.PacifyFlushWrapper):
                    raise BrokenPipeError from None  # click ends a closed pipe with 1; ours is 141
                raise
    except click.exceptions.Abort:
        return ExitStatus.INTERRUPTED
    except click.ClickException as exc:
        from leafexplain.render import usage_error

        buffer = io.StringIO()
        exc.show(file=buffer)
        usage_error(env, buffer.getvalue())  # it may quote the user's arguments
        return ExitStatus.USAGE_ERROR


class StatusKept:
    """For `run`, as `with StatusKept(env):` the command's own exit status stands, whatever happens while its
    output is explained. (A class, not contextlib's decorator: this module is on every run's way.)"""

    def __init__(self, env: Environment) -> None:
        self.env = env

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: object) -> bool:
        if kind is None or not issubclass(kind, Exception):
            return False  # no error, or Ctrl-C and its kind: those end the run
        if issubclass(kind, BrokenPipeError):
            return True  # our stderr is gone; the command's status still stands
        if self.env.debug:
            return False  # a bug of ours must not hide the command's own status, unless debugging
        from leafexplain.render import warn

        try:
            warn(self.env, f"internal error while explaining: {kind.__name__}: {exc}")
        except OSError:
            settle(self.env)  # stderr cannot take it: nothing of it left to fail on the way out
        return True
