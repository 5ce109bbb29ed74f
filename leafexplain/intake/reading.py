"""Where the input comes from: the text given as arguments, a file (`-` is stdin), or stdin when piped."""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Sequence

from leafexplain.intake.stream import read_chunks
from leafexplain.models import InputError, NoInput

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: the everyday path does without it
if TYPE_CHECKING:
    from typing import BinaryIO


class Chunks:
    """The input in pieces, read once. A read that fails part way (EIO from `/proc/self/mem`, a terminal
    hung up) ends the input there: what was read is still explained, and `error` says what went wrong."""

    def __init__(self, pieces: Iterable[bytes], name: str) -> None:
        self.pieces, self.name = pieces, name
        self.error: str | None = None

    def __iter__(self) -> Iterator[bytes]:
        try:
            yield from self.pieces
        except OSError as exc:
            self.error = f"cannot read {self.name}: {exc.strerror or exc}"


def _stdin(stdin: BinaryIO | None, stdin_isatty: bool) -> BinaryIO:
    if stdin is None:
        raise InputError("cannot read stdin: it is closed (no input)")
    try:
        fd = stdin.fileno()
    except (OSError, ValueError):  # a stream in memory
        return stdin
    if not stdin_isatty:  # a terminal is read as typed; anything else is checked as a --file is
        info = os.fstat(fd)
        problem = _not_readable_input(fd, info)
        if problem:
            raise InputError(f"cannot read stdin: {problem}")
        return _bounded(stdin, info)
    return stdin


def open_input(path: str, stdin: BinaryIO | None, stdin_isatty: bool) -> BinaryIO:
    """A file to read the input from (`-` is stdin), or a clear InputError."""
    if path == "-":
        return _stdin(stdin, stdin_isatty)
    try:
        # Without blocking: a FIFO nobody writes to would hold the open for ever. Once open, it reads as any pipe
        # (empty when nobody writes).
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise InputError(f"cannot read {path}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"cannot read {path}: it is a folder") from None
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror or exc}") from None
    info = os.fstat(fd)
    problem = _not_readable_input(fd, info)
    if problem:
        os.close(fd)
        raise InputError(f"cannot read {path}: {problem}")
    if hasattr(os, "set_blocking"):
        os.set_blocking(fd, True)
    _wait_for_a_writer(fd, info)
    return _bounded(os.fdopen(fd, "rb"), info)


# How long a FIFO opened before its writer (`leafexplain --file f & cargo test > f`) waits for it to open its end.
FIFO_WRITER_WAIT_SECONDS = 1.0


def _wait_for_a_writer(fd: int, info: os.stat_result) -> None:
    """For a FIFO, until a writer has opened it (at most FIFO_WRITER_WAIT_SECONDS): before that a read finds no
    writer and ends the input at once, however soon the writer comes. One nobody opens is empty input."""
    import stat

    if stat.S_ISFIFO(info.st_mode):
        import select  # only here: no other input needs it

        try:  # noqa: SIM105 (contextlib.suppress: one import more, which the everyday path does without)
            select.select([fd], [], [], FIFO_WRITER_WAIT_SECONDS)  # readable once a writer wrote or came and went
        except (OSError, ValueError):  # no select for this descriptor here: read it as it is
            pass


def _bounded(stream: BinaryIO, info: os.stat_result) -> BinaryIO:
    """`stream` as it is, or read to a bound where it is a regular file of no size that reads as much as you
    like (`/proc/self/pagemap`, `/sys/...`): the system makes it up as it is read. No log is such a file; its
    first PSEUDO_FILE_BYTES are read, no more."""
    import stat

    if info.st_size == 0 and stat.S_ISREG(info.st_mode):
        return _Capped(stream, PSEUDO_FILE_BYTES)  # type: ignore[return-value]
    return stream


PSEUDO_FILE_BYTES = 64 << 20


class _Capped:
    """A stream read up to a number of bytes; past it, one OSError says so (the input ends there, explained)."""

    def __init__(self, stream: BinaryIO, limit: int) -> None:
        self.stream, self.left = stream, limit

    def read(self, size: int = -1) -> bytes:
        if self.left <= 0:
            if self.stream.read(1):
                raise OSError(f"only its first {PSEUDO_FILE_BYTES >> 20} MB are read (a file the system makes up)")
            return b""
        data = self.stream.read(self.left if size < 0 else min(size, self.left))
        self.left -= len(data)
        return data

    def close(self) -> None:
        self.stream.close()


def _not_readable_input(fd: int, info: os.stat_result) -> str | None:
    """Why what is open on `fd` is no input: a folder, or a device that never ends (`/dev/zero`, `/dev/urandom`,
    a disk). Files, pipes, FIFOs, sockets, a terminal and /dev/null are read."""
    import stat

    mode = info.st_mode
    if stat.S_ISDIR(mode):
        return "it is a folder"
    if stat.S_ISBLK(mode):
        return "it is a device, not a file or a pipe"
    if stat.S_ISCHR(mode):  # a terminal or /dev/ptmx too: only /dev/null, which ends at once, is input
        try:
            if info.st_rdev == os.stat(os.devnull).st_rdev:
                return None
        except OSError:
            pass
        return "it is a device, not a file or a pipe"
    return None


def input_chunks(text: Sequence[str], file: str | None, stdin: BinaryIO | None, stdin_isatty: bool) -> Chunks:
    """The input in pieces, read once: arguments, a file, or stdin when it is not a terminal.

    Raises InputError for a file that cannot be opened (or a stdin closed before the start) and NoInput when
    there is nothing to read.
    """
    if text:
        return Chunks([" ".join(text).encode("utf-8", "surrogateescape")], "the arguments")
    if file:
        return Chunks(read_chunks(open_input(file, stdin, stdin_isatty)), "stdin" if file == "-" else file)
    if not stdin_isatty:
        return Chunks(read_chunks(_stdin(stdin, stdin_isatty)), "stdin")
    raise NoInput("no input: pipe a failing run into leafexplain, pass the text, or use --file")
