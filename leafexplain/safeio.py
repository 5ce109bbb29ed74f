"""Files leafexplain did not make, handled with care: opened and then checked (a regular file, within a size bound,
never blocking on a FIFO), and written whole without following a symlink or replacing a file unasked.

Whatever a path names is only known once it is open: a name checked first and opened after may
have become a FIFO (whose opening blocks until a writer comes), a device that never ends
(`/dev/zero`) or a symlink meanwhile. So every file is opened non-blocking, then `fstat` decides;
and a path resolved and checked (`realpath`, `inside`) is opened with `open_resolved`, which
follows no symlink in any of its parts: what is read is what stood at the checked path.
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
# A folder on the way to a resolved path: O_PATH (Linux) needs no read permission on it, only the search one
# that resolving the path by name needs too; O_NOFOLLOW with O_DIRECTORY refuses a symlink put in its place.
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
_WAY_FLAGS = (getattr(os, "O_PATH", 0) or os.O_RDONLY) | _DIRECTORY | _NO_FOLLOW | getattr(os, "O_CLOEXEC", 0)
_WALKS = bool(_NO_FOLLOW and _DIRECTORY) and os.open in os.supports_dir_fd


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
    return _checked(os.open(path, _READ_FLAGS | (0 if follow else _NO_FOLLOW)), path, max_bytes, buffering)


def open_resolved(path: str, *, max_bytes: int | None = None, buffering: int = -1) -> BinaryIO:
    """`path`, absolute and resolved (`realpath`, then checked by the caller), open for reading as `open_regular`
    does, with no symlink followed in any of its parts: a folder or the file swapped for a symlink since the
    check raises OSError (ENOTDIR or ELOOP), never opens what the symlink names."""
    if not os.path.isabs(path) or any(part in (".", "..") for part in path.split(os.sep)):
        raise OSError(errno.EINVAL, "not a resolved path", path)
    if not _WALKS:  # no openat here (Windows): the last part not followed, and the path resolved again once open
        handle = open_regular(path, max_bytes=max_bytes, follow=False, buffering=buffering)
        if realpath(path) != path:
            handle.close()
            raise OSError(errno.ELOOP, "a symlink on the way", path)
        return handle
    *folders, name = path.split(os.sep)[1:]
    way = os.open(os.sep, _WAY_FLAGS)
    try:
        for folder in folders:  # each part opened in the one before it, never followed
            if folder:
                inner = os.open(folder, _WAY_FLAGS, dir_fd=way)
                os.close(way)
                way = inner
        fd = os.open(name, _READ_FLAGS | _NO_FOLLOW, dir_fd=way)
    finally:
        os.close(way)
    return _checked(fd, path, max_bytes, buffering)


def _checked(fd: int, path: str | os.PathLike[str], max_bytes: int | None, buffering: int) -> BinaryIO:
    """The open descriptor as a file object, once it is known to be a regular file within the bound (else closed)."""
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
    (pathlib's `resolve` raises RuntimeError on a loop in this Python), and so does a symlink swapped while it
    is read (os.path's walk raises EINVAL from readlink then): the walk is tried again, else the path as it
    stands, which a check then reads as written and `open_resolved` opens without following anything."""
    for _ in range(3):
        try:
            return os.path.realpath(path)
        except OSError:
            continue
    return os.path.abspath(path)


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
