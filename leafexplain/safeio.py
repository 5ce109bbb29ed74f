"""Files leafexplain did not make, handled with care: opened and then checked (a regular file, within a size bound,
never blocking on a FIFO), and written whole without following a symlink or replacing a file unasked.

Whatever a path names is only known once it is open: a name checked first and opened after may
have become a FIFO (whose opening blocks until a writer comes), a device that never ends
(`/dev/zero`) or a symlink meanwhile. So every file is opened non-blocking, then `fstat` decides.
"""

from __future__ import annotations

import errno
import os
import stat

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: the everyday path does without it
if TYPE_CHECKING:
    from typing import BinaryIO

# O_NONBLOCK: opening a FIFO returns at once (no writer needed); a regular file ignores the flag.
_READ_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0)
_NO_FOLLOW = getattr(os, "O_NOFOLLOW", 0)


class NotRegularFile(OSError):
    """The path is a FIFO, a device, a socket or a folder: never read as a file of text."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        super().__init__(errno.EINVAL, "not a regular file", str(path))


class FileTooLarge(OSError):
    """The file is larger than what leafexplain reads of its kind."""

    def __init__(self, path: str | os.PathLike[str], size: int, limit: int) -> None:
        super().__init__(errno.EFBIG, f"{size} bytes is more than the {limit} read", str(path))
        self.size = size


def open_regular(
    path: str | os.PathLike[str], *, max_bytes: int | None = None, follow: bool = True, buffering: int = -1
) -> BinaryIO:
    """`path` open for reading, once it is known to be a regular file of at most `max_bytes`.

    Raises OSError when it cannot be opened (ELOOP for a symlink when not `follow`), NotRegularFile
    for anything but a regular file, FileTooLarge past the bound.
    """
    fd = os.open(path, _READ_FLAGS | (0 if follow else _NO_FOLLOW))
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise NotRegularFile(path)
        if max_bytes is not None and st.st_size > max_bytes:
            raise FileTooLarge(path, st.st_size, max_bytes)
        os.set_blocking(fd, True)
        return open(fd, "rb", buffering=buffering)  # closing the file object closes the descriptor
    except BaseException:
        os.close(fd)
        raise


def read_regular(path: str | os.PathLike[str], max_bytes: int, *, follow: bool = True) -> bytes:
    """The whole of a regular file of at most `max_bytes` (one that grew past it since it was opened is refused too)."""
    with open_regular(path, max_bytes=max_bytes, follow=follow) as handle:
        data = handle.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise FileTooLarge(path, len(data), max_bytes)
    return data


def realpath(path: str | os.PathLike[str]) -> str:
    """The path with every symlink followed; a loop or a missing part ends the walk without raising
    (pathlib's `resolve` raises RuntimeError on a loop in this Python)."""
    return os.path.realpath(path)


def inside(path: str | os.PathLike[str], root: str | os.PathLike[str]) -> bool:
    """`path` lies in the folder `root` (or is it) once symlinks are followed in both."""
    real, base = realpath(path), realpath(root)
    return real == base or real.startswith(base.rstrip(os.sep) + os.sep)


def _umask() -> int:
    mask = os.umask(0o022)  # the only way to read it is to set it: put it back at once
    os.umask(mask)
    return mask


def write_whole(target: str | os.PathLike[str], data: bytes, *, replace: bool = False) -> None:
    """Write `target` whole or not at all: a temporary file beside it, then a link to the name (which never
    replaces anything: FileExistsError) or, with `replace`, a rename over the name itself (a symlink there
    is replaced, never written through)."""
    import tempfile  # only when writing: it imports random, shutil and more

    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(os.fspath(target)) or None, prefix=".leafexplain-", suffix=".tmp")
    try:
        # mkstemp makes the file private (0600); a record or a completion script is the user's own
        # file, shared like any other: the mode their umask gives a new file.
        os.fchmod(fd, 0o666 & ~_umask())
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        if replace:
            os.replace(tmp, target)
        else:
            os.link(tmp, target)
    finally:
        try:
            os.unlink(tmp)
        except OSError:
            pass
