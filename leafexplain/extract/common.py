"""Shared pieces of the extractors: line prefixes, library paths, frame helpers."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from leafexplain.models import Frame

LineStripper = Callable[[str], "str | None"]


def prefix_stripper(prefix: str) -> LineStripper:
    """Strip a per-line prefix (CI timestamp, `[rank0]:`) seen on an anchor line.

    Later lines carry the same prefix or one of the same shape (the digits change: a timestamp,
    another rank). A line without it does not belong to the block: None.
    """
    if not prefix:
        return lambda line: line
    if prefix.isspace():
        width = len(prefix)

        def strip_indent(line: str) -> str | None:
            if not line.strip():
                return ""
            head = len(line) - len(line.lstrip())
            return line[min(head, width) :] if head else None

        return strip_indent
    shape = re.compile(
        "".join(r"\d+" if part.isdigit() else re.escape(part) for part in re.split(r"(\d+)", prefix) if part)
    )

    def strip_shape(line: str) -> str | None:
        if line.startswith(prefix):
            return line[len(prefix) :]
        m = shape.match(line)
        if m:
            return line[m.end() :]
        return "" if not line.strip() else None

    return strip_shape


# burn's own crates count as a library wherever they sit (a registry, a git checkout, a
# vendored copy): the user's frame is the code that called into burn.
_RUST_LIBRARY = re.compile(
    r"(^|/)rustc/[0-9a-f]{7,40}/|/\.cargo/(registry|git)/|/\.rustup/|/rustlib/src/"
    r"|(^|/)library/(std|core|alloc|proc_macro|test)/src/|(^|/)crates/burn(-[a-z0-9]+)*/src/"
)
_RUST_STD_FUNCTION = re.compile(r"^(<)?(std|core|alloc|__rustc|rust_begin_unwind|test)(\[[0-9a-f]+\])?(::|$)")
_PYTHON_LIBRARY = re.compile(
    r"[/\\](site|dist)-packages[/\\]|[/\\]lib(64)?[/\\]python\d(\.\d+)?[/\\]|^<frozen |[/\\]Lib[/\\]"
)


def is_library_frame(frame: Frame, language: str) -> bool:
    if language == "rust":
        if _RUST_LIBRARY.search(frame.file):
            return True
        return bool(frame.function and not frame.file and _RUST_STD_FUNCTION.match(frame.function))
    return bool(_PYTHON_LIBRARY.search(frame.file))


def user_frame(frames: Sequence[Frame], language: str, innermost_first: bool) -> Frame | None:
    """The innermost frame that is the user's own code, not a library's."""
    ordered = frames if innermost_first else list(reversed(frames))
    for frame in ordered:
        if frame.file and not is_library_frame(frame, language):
            return frame
    return None


def trim_blank(lines: list[str]) -> list[str]:
    while lines and not lines[-1].strip():
        lines.pop()
    return lines
