"""Where to look on this machine, reading small text files there (cached by size and time), and the user's own
code around their frame."""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from leafexplain.env import cache_dir, home
from leafexplain.models import ErrorEvent, Snippet

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


@dataclass(frozen=True)
class LocalPaths:
    """Where to look. `roots` resolve relative frame paths, first to last."""

    roots: tuple[Path, ...]
    cargo_home: Path
    rustup_home: Path
    stdlib: Path | None
    python_version: str
    system_rust_src: tuple[Path, ...] = (Path("/usr/lib/rustlib/src/rust"), Path("/usr/local/lib/rustlib/src/rust"))
    # Use the `rustc` on PATH: the sysroot beside a plain (not rustup) rustc, and `rustc --print sysroot`
    # when several toolchains have rust-src and the backtrace names no commit.
    rustc_on_path: bool = True
    search_path: str | None = None  # PATH, where `rustc` is looked for (None: the process's own)
    sources: Path | None = None  # the source cache `leafexplain update` fills (None: not read)

    @classmethod
    def from_environment(cls, environ: Mapping[str, str], root: Path | None = None) -> LocalPaths:
        user_home = home(environ)
        try:
            cwd: list[Path] = [Path.cwd()]
        except OSError:  # the folder was removed under us
            cwd = []
        roots = tuple(dict.fromkeys([root.resolve(), *cwd] if root is not None else cwd))
        return cls(
            roots=roots,
            cargo_home=Path(environ.get("CARGO_HOME") or user_home / ".cargo"),
            rustup_home=Path(environ.get("RUSTUP_HOME") or user_home / ".rustup"),
            stdlib=Path(os.__file__).parent,  # `os` is always in the standard library's folder
            python_version="Python " + sys.version.split()[0],
            search_path=environ.get("PATH"),
            sources=cache_dir(environ) / "sources",
        )


@dataclass(frozen=True)
class Found:
    """A record's file found on this machine: what it belongs to, and where in it to look first."""

    path: Path
    version: str | None
    hint: int | None  # a frame's line in this file: where to look first
    url: str | None = None
    url_exact: bool = False  # the local file is the backtrace's commit: the url can point at the line
    note: str = ""


def language_of(path: str) -> str:
    return _LANGUAGES.get(Path(path).suffix.lower(), "text")


def stamp(path: Path) -> tuple[int, int] | None:
    try:
        st = path.stat()
    except (OSError, ValueError):
        return None
    if not path.is_file() or st.st_size > MAX_FILE_BYTES:
        return None
    return st.st_mtime_ns, st.st_size


@lru_cache(maxsize=64)
def read_lines_cached(path: str, stamp: tuple[int, int]) -> tuple[str, ...] | None:
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except OSError:
        return None
    if len(data) > MAX_FILE_BYTES or b"\0" in data[:8192]:
        return None  # too big, or not text
    text = data.decode("utf-8", errors="replace")
    return tuple(line[:MAX_LINE_CHARS] for line in text.splitlines())


def read_lines(path: Path) -> tuple[str, ...] | None:
    """The lines of a text file, or None when it is missing, too big or binary."""
    found = stamp(path)
    return None if found is None else read_lines_cached(str(path), found)


def window(lines: tuple[str, ...], line: int, context: int) -> tuple[int, tuple[str, ...]]:
    start = max(line - context, 1)
    return start, lines[start - 1 : line + context]


def is_file(path: Path) -> bool:
    try:
        return path.is_file()
    except (OSError, ValueError):
        return False


def resolve(file: str, paths: LocalPaths) -> Path | None:
    """The file a frame names, when it exists here; relative paths are tried against each root."""
    if not file or file.startswith("<") or "\0" in file:
        return None  # <string>, <stdin>, <frozen importlib._bootstrap>
    candidate = Path(file)
    if candidate.is_absolute():
        return candidate if is_file(candidate) else None
    for root in paths.roots:
        if is_file(root / candidate):
            return root / candidate
    return None


def user_snippet(event: ErrorEvent, paths: LocalPaths, context: int = USER_CONTEXT) -> Snippet | None:
    frame = event.user_frame
    if frame is None or not frame.line:
        return None
    found = resolve(frame.file, paths)
    lines = read_lines(found) if found else None
    if found is None or lines is None or frame.line > len(lines):
        return None
    line, note = frame.line, ""
    code = (frame.code or "").strip()
    if code and lines[line - 1].strip() != code:
        # A Python traceback prints the line's code: when the file no longer has it there, the file
        # changed since the run. Show where that code stands now, or say the lines may not match.
        near = range(max(line - CODE_SEARCH, 1), min(line + CODE_SEARCH, len(lines)) + 1)
        moved = [n for n in near if lines[n - 1].strip() == code]
        if moved:
            line = min(moved, key=lambda n: (abs(n - frame.line), n))
            note = f"The file changed since the run: the traceback's line {frame.line} is line {line} now."
        else:
            note = f"The file changed since the run: line {frame.line} no longer holds the traceback's code."
    start, shown = window(lines, line, context)
    return Snippet(str(found), line, start, shown, language_of(found.name), note)
