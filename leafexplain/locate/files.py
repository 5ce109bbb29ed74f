"""Where to look on this machine, reading small text files there (cached by size and time), and the user's own
code around their frame: only from their own folders, and for Python only where the file still holds the
line the traceback printed.

Pasted text is untrusted (docs/security.md): a frame may name any path (`~/.ssh/id_rsa`, `/proc/self/maps`,
`../../etc/passwd`), and the output is often shared. So "your code" is a source file of the frame's
language under `--root`, the current folder or the project above it, with no hidden folder on the way,
opened as a regular file; a library file is one in a library location (or in those same folders).

Paths are strings (os.path), here and in the rest of `locate`: this runs on every explanation, and
pathlib costs more to import than all of it takes to run.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping

from leafexplain.env import cache_dir, home
from leafexplain.models import ErrorEvent, Frame, Snippet
from leafexplain.named import NamedTuple
from leafexplain.redact import MARK, redact
from leafexplain.regex import lazy_regex
from leafexplain.safeio import inside, open_resolved, realpath

USER_CONTEXT = 3  # lines either side of the user's line
CODE_SEARCH = 30  # lines either side where a traceback's code line is looked for when the file changed
MAX_FILE_BYTES = 2_000_000  # bigger files are generated or minified: not worth reading
MAX_LINE_CHARS = 400
_LANGUAGES = {
    ".rs": "rust",
    ".py": "python",
    ".pyi": "python",
    ".c": "c",
    ".h": "cpp",
    ".hpp": "cpp",
    ".cpp": "cpp",
    ".cc": "cpp",
    ".cu": "cpp",
    ".cuh": "cpp",
}
# Your code is source code of the frame's language: a frame naming `.env` or `id_rsa` shows nothing.
SOURCE_SUFFIXES = {"rust": (".rs",), "python": (".py", ".pyw", ".pyx")}
# A path with a control character (or the mark one left in the input, U+FFFD) is refused, never cleaned.
_NOT_A_PATH = lazy_regex(r"[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff\ufffd]")
PROJECT_MARKERS = ("Cargo.toml", "pyproject.toml", ".git")


class LocalPaths(NamedTuple):
    """Where to look. `roots` resolve relative frame paths, first to last."""

    roots: tuple[str, ...]  # your folders: --root, the current folder, the project above it
    cargo_home: str
    rustup_home: str
    stdlib: str | None
    python_version: str
    system_rust_src: tuple[str, ...] = ("/usr/lib/rustlib/src/rust", "/usr/local/lib/rustlib/src/rust")
    # Use the `rustc` on PATH: the sysroot beside a plain (not rustup) rustc, and `rustc --print sysroot`
    # when several toolchains have rust-src and the backtrace names no commit.
    rustc_on_path: bool = True
    search_path: str | None = None  # PATH, where `rustc` is looked for (None: the process's own)
    sources: str | None = None  # the source cache `leafexplain update` fills (None: not read)

    @classmethod
    def from_environment(cls, environ: Mapping[str, str], root: str | None = None) -> LocalPaths:
        user_home = home(environ)
        try:
            here = os.getcwd()
        except OSError:  # the folder was removed under us
            here = None
        project = [p for p in [project_root(here, user_home)] if p] if here else []
        # The current folder is yours to show, unless it is the file system's root, your home folder or a
        # folder above it: from there every file of yours (or of the machine) would be "your code".
        cwd = [here] if here and not _holds_home(here, user_home) else []
        given = [realpath(root)] if root is not None else []
        roots = tuple(dict.fromkeys([*given, *cwd, *project]))
        return cls(
            roots=roots,
            cargo_home=environ.get("CARGO_HOME") or os.path.join(user_home, ".cargo"),
            rustup_home=environ.get("RUSTUP_HOME") or os.path.join(user_home, ".rustup"),
            stdlib=os.path.dirname(os.__file__),  # `os` is always in the standard library's folder
            python_version="Python " + sys.version.split()[0],
            search_path=environ.get("PATH"),
            sources=os.path.join(cache_dir(environ), "sources"),
        )


class Found(NamedTuple):
    """A record's file found on this machine: what it belongs to, and where in it to look first."""

    path: str
    version: str | None
    hint: int | None  # a frame's line in this file: where to look first
    url: str | None = None
    url_exact: bool = False  # the local file is the backtrace's commit: the url can point at the line
    note: str = ""
    real: str | None = None  # the resolved path that was checked, the one to open (None: `path` resolved)


def _holds_home(folder: str, user_home: str) -> bool:
    """`folder` is the file system's root, the home folder, or a folder the home folder is inside."""
    folder, user_home = realpath(folder), realpath(user_home)
    if folder == realpath(os.sep):
        return True
    return user_home == folder or user_home.startswith(folder.rstrip(os.sep) + os.sep)


def project_root(cwd: str, user_home: str) -> str | None:
    """The nearest folder at or above `cwd` with a Cargo.toml, pyproject.toml or .git: the project the frames
    point into. The home folder itself (a dotfiles repository) and the file system's root are never one."""
    stop = {realpath(user_home), realpath(os.sep)}
    folder = os.path.abspath(cwd)
    while realpath(folder) not in stop:
        if any(os.path.lexists(os.path.join(folder, marker)) for marker in PROJECT_MARKERS):
            return folder
        parent = os.path.dirname(folder)
        if parent == folder:
            break
        folder = parent
    return None


def language_of(path: str) -> str:
    return _LANGUAGES.get(suffix(path), "text")


def suffix(path: str) -> str:
    """A file name's last extension, lower case (`.rs`); none for a name that starts with its only dot (`.env`)."""
    return os.path.splitext(path)[1].lower()


# What a file read is known by: device, inode, modification time and size of what was opened.
Stamp = tuple[int, int, int, int]


def stamp(real: str) -> Stamp | None:
    """The stamp of the regular file at `real`, a resolved path (checked by the caller), opened following no
    symlink in any part (`open_resolved`); None when it is missing, too big, not a regular file, or a part of
    its path was swapped for a symlink since it was resolved. Never resolved again here: that would follow
    the symlink a writer put in since the check."""
    try:
        with open_resolved(real, max_bytes=MAX_FILE_BYTES) as handle:
            st = os.fstat(handle.fileno())
    except (OSError, ValueError):
        return None
    return st.st_dev, st.st_ino, st.st_mtime_ns, st.st_size


_READ: dict[tuple[str, Stamp], tuple[str, ...] | None] = {}  # what read_lines_cached read, by path and stamp
_READ_MOST = 64


def read_lines_cached(real: str, stamp: Stamp) -> tuple[str, ...] | None:
    """The lines of the file at `real` (resolved, as for `stamp`), when what is opened there is still the file
    `stamp` was taken of: a file swapped since (a symlink, another file) is not read. Kept by path and stamp,
    but for a read that failed because the file was swapped or could not be opened: that may pass, and the next
    lookup reads it again (a writer racing in the project once left the user's own file unshown for good)."""
    key = (real, stamp)
    if key in _READ:
        return _READ[key]
    try:
        with open_resolved(real, max_bytes=MAX_FILE_BYTES) as handle:
            st = os.fstat(handle.fileno())
            if (st.st_dev, st.st_ino, st.st_mtime_ns, st.st_size) != stamp:
                return None
            data = handle.read(MAX_FILE_BYTES + 1)
    except (OSError, ValueError):
        return None
    if len(data) > MAX_FILE_BYTES or b"\0" in data[:8192]:
        found = None  # grew past the bound since it was opened, or not text: so for this stamp, for good
    else:
        found = tuple(line[:MAX_LINE_CHARS] for line in data.decode("utf-8", errors="replace").splitlines())
    if len(_READ) >= _READ_MOST:
        del _READ[next(iter(_READ))]  # the oldest
    _READ[key] = found
    return found


def forget_reads() -> None:
    """The files read so far are read again by the next lookup."""
    _READ.clear()


def read_lines(real: str) -> tuple[str, ...] | None:
    """The lines of the text file at `real` (resolved, as for `stamp`), or None when it is missing, too big or
    binary."""
    found = stamp(real)
    return None if found is None else read_lines_cached(real, found)


def window(lines: tuple[str, ...], line: int, context: int) -> tuple[int, tuple[str, ...]]:
    start = max(line - context, 1)
    return start, lines[start - 1 : line + context]


def is_file(path: str) -> bool:
    return os.path.isfile(path)  # False for a path that cannot be stat'ed, a NUL in it included


def plain_path(file: str) -> bool:
    """A frame's path that names a file: not `<string>` or `<frozen ...>`, no control character in it."""
    if not file or file.startswith("<"):
        return False
    return (file.isprintable() and "\ufffd" not in file) or not _NOT_A_PATH.search(file)  # the regex: a rare file


def _candidates(file: str, paths: LocalPaths) -> list[str]:
    """Where a frame's path may be here: itself when absolute, else under each root in turn."""
    path = tidy(file)
    return [path] if os.path.isabs(path) else [os.path.join(root, path) for root in paths.roots]


def tidy(path: str) -> str:
    """The path without empty and `.` parts (`./src//main.rs` is `src/main.rs`); `..` is kept, as it is meant."""
    parts = [part for part in path.split(os.sep) if part not in ("", ".")]
    lead = os.sep if path.startswith(os.sep) else ""
    return lead + os.sep.join(parts) if parts or lead else "."


def _in_your_folders(real: str, paths: LocalPaths) -> bool:
    """The (resolved) file lies under one of the roots, with no hidden folder or file below the root."""
    for root in paths.roots:
        base = realpath(root)
        if inside(real, base) and not any(part.startswith(".") for part in os.path.relpath(real, base).split(os.sep)):
            return True
    return False


def your_file(frame: Frame, language: str, paths: LocalPaths) -> tuple[str, str] | None:
    """(the path as shown, the file to open) for the user's own code that a frame names, or None."""
    if not plain_path(frame.file) or suffix(frame.file.rstrip(os.sep)) not in SOURCE_SUFFIXES.get(language, ()):
        return None
    for candidate in _candidates(frame.file, paths):
        real = realpath(candidate)
        if is_file(real) and _in_your_folders(real, paths):
            return candidate, real
    return None


def resolve(file: str, paths: LocalPaths) -> str | None:
    """The file a frame names, when it exists here: relative paths are tried against each root."""
    if not plain_path(file):
        return None  # <string>, <stdin>, <frozen importlib._bootstrap>, or a path with a control character
    return next((candidate for candidate in _candidates(file, paths) if is_file(candidate)), None)


def same_code(line: str, code: str) -> bool:
    """The file's line is the traceback's code line; a secret in it was redacted in the traceback only."""
    return line.strip() == code or (MARK in code and redact(line).strip() == code)


def user_snippet(event: ErrorEvent, paths: LocalPaths, context: int = USER_CONTEXT) -> Snippet | None:
    """The lines around the user's frame, from their own file; for Python, only when the file still holds the code
    the traceback printed for that line (else the path and a note, no lines)."""
    frame = event.user_frame
    if frame is None or not frame.line:
        return None
    found = your_file(frame, event.language, paths)
    if found is None:
        return None
    shown, real = found
    lines = read_lines(real)
    code = (frame.code or "").strip()
    if lines is None or frame.line > len(lines) or (event.language == "python" and not code):
        return None  # a Python frame without its code line proves nothing about this file
    line, note = frame.line, ""
    if code and not same_code(lines[line - 1], code):
        # A Python traceback prints the line's code: when the file no longer has it there, the file
        # changed since the run, or the traceback is not from this file. Show where that code stands
        # now, or say the lines do not match and show none of them.
        near = range(max(line - CODE_SEARCH, 1), min(line + CODE_SEARCH, len(lines)) + 1)
        moved = [n for n in near if same_code(lines[n - 1], code)]
        if not moved:
            note = (
                f"The file changed since the run: line {frame.line} no longer holds the traceback's code, "
                "so its lines are not shown."
            )
            return Snippet(shown, frame.line, frame.line, (), language_of(shown), note)
        line = min(moved, key=lambda n: (abs(n - frame.line), n))
        note = f"The file changed since the run: the traceback's line {frame.line} is line {line} now."
    start, window_lines = window(lines, line, context)
    return Snippet(shown, line, start, window_lines, language_of(shown), note)


def _indent_of(line: str) -> int:
    return len(line) - len(line.lstrip())


def guard(lines: tuple[str, ...], line: int, start: int, openers: tuple[str, ...]) -> str | None:
    """The test guarding line `line` among the lines shown (from `start`): the line itself when it opens with one
    of `openers` (an `assert`), else the nearest line above, less indented and no comment, that does, through the
    statements it is inside (`msg = (` of a message built before its raise). Without its block's `:` or `{` and
    a comment after it, as raised_python writes it."""
    own = lines[line - 1].strip()
    if own.startswith(openers):
        return own
    depth = _indent_of(lines[line - 1])
    for n in range(line - 1, start - 1, -1):
        text = lines[n - 1].strip()
        if not text or text.startswith(("#", "//")) or _indent_of(lines[n - 1]) >= depth:
            continue
        if text.startswith(openers):
            return _test_of(text)
        depth = _indent_of(lines[n - 1])
    return None


def _test_of(header: str) -> str:
    """`if x:  # why` -> `if x`; `} else if y {` -> `} else if y`."""
    for mark in (" #", " //"):
        if mark in header:
            header = header[: header.rindex(mark)].rstrip()
    return header.removesuffix(":").removesuffix("{").strip()
