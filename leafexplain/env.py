"""Terminal facts in one injectable object: what stdout is, how wide, whether to use colour."""

from __future__ import annotations

import io
import os
import sys
from dataclasses import dataclass
from typing import Literal, TextIO

ColorChoice = Literal["auto", "always", "never"]
DEFAULT_PIPE_WIDTH = 100


@dataclass(frozen=True)
class Environment:
    stdout_isatty: bool
    stdin_isatty: bool
    width: int
    no_color: bool  # NO_COLOR is set to a non-empty value
    stdout: TextIO = sys.stdout
    stderr: TextIO = sys.stderr

    @classmethod
    def from_process(cls) -> Environment:
        out_tty = _isatty(sys.stdout)
        columns = os.environ.get("COLUMNS", "")
        if columns.isdigit() and int(columns) > 0:
            width = int(columns)
        elif out_tty:
            import shutil

            width = shutil.get_terminal_size((DEFAULT_PIPE_WIDTH, 24)).columns
        else:
            width = DEFAULT_PIPE_WIDTH
        return cls(
            stdout_isatty=out_tty,
            stdin_isatty=_isatty(sys.stdin),
            width=width,
            no_color=bool(os.environ.get("NO_COLOR")),
            stdout=whole_writes(sys.stdout),
            stderr=whole_writes(sys.stderr),
        )

    def use_color(self, choice: ColorChoice) -> bool:
        if choice == "always":
            return True
        if choice == "never":
            return False
        return self.stdout_isatty and not self.no_color


def whole_writes(stream: TextIO | None) -> TextIO:
    """A text stream that writes all it is given, or raises (BrokenPipeError when the reader left).

    Under PYTHONUNBUFFERED (or `python -u`) Python's stdout writes straight to the file descriptor,
    and what a partial write leaves (a signal during a long write, a reader that went away) is
    dropped without a word: a buffered layer over the same descriptor writes the rest or raises.
    A stream closed before we started (`>&-`) is read by nobody: /dev/null stands in for it.
    """
    if stream is None:
        return open(os.devnull, "w", encoding="utf-8")
    if not isinstance(getattr(stream, "buffer", None), io.RawIOBase):
        return stream
    try:
        raw = io.FileIO(stream.fileno(), "w", closefd=False)
        buffered = io.BufferedWriter(raw)
        return io.TextIOWrapper(
            buffered, encoding=stream.encoding, errors=stream.errors, line_buffering=stream.line_buffering
        )
    except (OSError, ValueError, AttributeError):
        return stream


def _isatty(stream: TextIO | None) -> bool:
    try:
        return bool(stream) and stream.isatty()  # type: ignore[union-attr]
    except (ValueError, OSError):
        return False
