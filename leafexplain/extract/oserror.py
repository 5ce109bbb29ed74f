"""The OS-error rule: an OSError with `[Errno N]` (or Windows' `[WinError N]`) is the same error in any locale, read
in the English it stands for."""

from __future__ import annotations

import re

from leafexplain.extract.common import short_class
from leafexplain.regex import lazy_regex

# An OSError's wording is read as the English its errno stands for (in Linux's numbering, which the records were
# written from), so that the record of that error is found by its wording, and the view shows the English.
OS_ERRNO = lazy_regex(
    r"^\[(?P<system>Errno|WinError) (?P<errno>\d+)\] (?P<text>.+?)(?P<rest>: (?:['\"b]).*)?$", re.S | re.I
)
OS_ERROR_CLASSES = {
    "OSError": None,
    "IOError": None,
    "EnvironmentError": None,
    "FileNotFoundError": 2,
    "PermissionError": 13,
    "FileExistsError": 17,
    "NotADirectoryError": 20,
    "IsADirectoryError": 21,
    "BrokenPipeError": 32,
    "ConnectionResetError": 104,
    "TimeoutError": 110,
    "ConnectionRefusedError": 111,
}
LINUX_STRERROR = {
    1: "Operation not permitted",
    2: "No such file or directory",
    5: "Input/output error",
    9: "Bad file descriptor",
    12: "Cannot allocate memory",
    13: "Permission denied",
    17: "File exists",
    20: "Not a directory",
    21: "Is a directory",
    22: "Invalid argument",
    24: "Too many open files",
    28: "No space left on device",
    30: "Read-only file system",
    32: "Broken pipe",
    36: "File name too long",
    39: "Directory not empty",
    98: "Address already in use",
    99: "Cannot assign requested address",
    101: "Network is unreachable",
    104: "Connection reset by peer",
    110: "Connection timed out",
    111: "Connection refused",
    113: "No route to host",
}


# The Windows errors Python raises as an OSError subclass, and the errno each stands for (the mapping CPython
# applies when it makes the exception, so that a FileNotFoundError is errno 2 on every system): the records were
# written from Linux's wording of that errno.
WINDOWS_ERRNO = {
    2: 2,  # ERROR_FILE_NOT_FOUND
    3: 2,  # ERROR_PATH_NOT_FOUND
    5: 13,  # ERROR_ACCESS_DENIED
    8: 12,  # ERROR_NOT_ENOUGH_MEMORY
    32: 13,  # ERROR_SHARING_VIOLATION (the file is open in another process)
    80: 17,  # ERROR_FILE_EXISTS
    109: 32,  # ERROR_BROKEN_PIPE
    145: 39,  # ERROR_DIR_NOT_EMPTY
    183: 17,  # ERROR_ALREADY_EXISTS
    267: 20,  # ERROR_DIRECTORY
    10048: 98,  # WSAEADDRINUSE
    10051: 101,  # WSAENETUNREACH
    10054: 104,  # WSAECONNRESET
    10060: 110,  # WSAETIMEDOUT
    10061: 111,  # WSAECONNREFUSED
    10065: 113,  # WSAEHOSTUNREACH
}


def english_os_error(error_type: str, message: str) -> str:
    """`[Errno 2] Aucun fichier ou dossier de ce type: 'x'` of a FileNotFoundError -> `[Errno 2] No such file or
    directory: 'x'`: the OS-error rule (OS_ERRNO); Windows' `[WinError 2] 系统找不到指定的文件。: 'x'` likewise, by the
    errno its code stands for (WINDOWS_ERRNO). Only where the class and the errno agree (a FileNotFoundError is
    errno 2; an OSError may be any), and only for an errno whose English is known; any other message as it was."""
    opening = message[:10].lower()
    if not opening.startswith(("[errno ", "[winerror ")) or short_class(error_type) not in OS_ERROR_CLASSES:
        return message
    m = OS_ERRNO.match(message)
    if m is None:
        return message
    errno = int(m.group("errno"))
    if m.group("system").lower() == "winerror":
        errno = WINDOWS_ERRNO.get(errno, 0)
    expected = OS_ERROR_CLASSES[short_class(error_type)]
    english = LINUX_STRERROR.get(errno)
    if english is None or (expected is not None and expected != errno and not (expected == 13 and errno == 1)):
        return message
    return f"[Errno {errno}] {english}{m.group('rest') or ''}"
