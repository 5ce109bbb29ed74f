"""Where the input comes from: the text given as arguments, a file (`-` is stdin), or stdin when piped."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import BinaryIO

from leafexplain.env import Environment
from leafexplain.intake.stream import read_chunks


class InputError(Exception):
    """The input cannot be read: a clear one-line message for the user."""


class NoInput(Exception):
    """Nothing piped, no text, no file: a usage error for the command line to report."""


def open_input(path: str, env: Environment) -> BinaryIO:
    """A file to read the input from (`-` is stdin), or a clear InputError."""
    if path == "-":
        return env.stdin
    try:
        return open(path, "rb")
    except FileNotFoundError:
        raise InputError(f"cannot read {path}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"cannot read {path}: it is a folder") from None
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror or exc}") from None


def input_chunks(text: Sequence[str], file: str | None, env: Environment) -> Iterable[bytes]:
    """The input in pieces, read once: arguments, a file, or stdin when it is not a terminal.

    Raises InputError for a file that cannot be opened and NoInput when there is nothing to read.
    """
    if text:
        return [" ".join(text).encode("utf-8", "surrogateescape")]
    if file:
        return read_chunks(open_input(file, env))
    if not env.stdin_isatty:
        return read_chunks(env.stdin)
    raise NoInput("no input: pipe a failing run into leafexplain, pass the text, or use --file")
