"""The OS-error rule: an OSError with `[Errno N]` is the same error in any locale, read in the English it stands for."""

from __future__ import annotations

import re

from leafexplain.extract.common import short_class
from leafexplain.regex import lazy_regex

# An OSError's wording is read as the English its errno stands for (in Linux's numbering, which the records were
# written from), so that the record of that error is found by its wording, and the view shows the English.
OS_ERRNO = lazy_regex(r"^\[Errno (?P<errno>\d+)\] (?P<text>.+?)(?P<rest>: (?:['\"b]).*)?$", re.S)
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


def english_os_error(error_type: str, message: str) -> str:
    """`[Errno 2] Aucun fichier ou dossier de ce type: 'x'` of a FileNotFoundError -> `[Errno 2] No such file or
    directory: 'x'`: the OS-error rule (OS_ERRNO). Only where the class and the errno agree (a FileNotFoundError is
    errno 2; an OSError may be any), and only for an errno whose English is known; any other message as it was."""
    if not message.startswith("[Errno ") or short_class(error_type) not in OS_ERROR_CLASSES:
        return message
    m = OS_ERRNO.match(message)
    if m is None:
        return message
    errno = int(m.group("errno"))
    expected = OS_ERROR_CLASSES[short_class(error_type)]
    english = LINUX_STRERROR.get(errno)
    if english is None or (expected is not None and expected != errno and not (expected == 13 and errno == 1)):
        return message
    return f"[Errno {errno}] {english}{m.group('rest') or ''}"
