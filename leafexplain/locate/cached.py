"""The source cache that `leafexplain update` fills: the lines around each record's raising line, by repo, commit
and path, read back at explain time without going online.

One JSON file per (repo, commit, path) in `$XDG_CACHE_HOME/leafexplain/sources/`, named by two checksums
of the three (so that no record can name a path outside the folder). It holds a window of lines for each
raising line asked for in that file, keyed by the line the record names:

    {"format": 1, "repo": "tracel-ai/burn", "commit": "75b78813…", "path": "crates/…/tensor.rs",
     "windows": [{"wanted": 90, "line": 90, "start": 84, "lines": ["…", "…"]}]}

`line` is where the message was found when the file was fetched (the record's line, or the nearest
line that has the message). Files are replaced whole, atomically: a reader sees the old entry or
the new one, and an entry that does not read back as this shape is treated as missing.

Read at explain time only for a snippet a view shows (`locate.find_sources` looks it up when asked), and
then it is a file read: the name is zlib's CRC-32 and Adler-32 (zlib is loaded already), not a hash
from hashlib (OpenSSL takes milliseconds to load), and paths are strings, not pathlib's. Entries named
by the earlier SHA-256 key are renamed by the next `update` (`adopt_old_entries`).
"""

from __future__ import annotations

import json
import os
import zlib
from collections.abc import Mapping, Sequence

from leafexplain.env import cache_dir
from leafexplain.locate.files import MAX_LINE_CHARS, language_of
from leafexplain.locate.library import LIBRARY_CONTEXT
from leafexplain.models import CachedSnippet, Record, SourcePlace
from leafexplain.named import NamedTuple
from leafexplain.regex import lazy_regex
from leafexplain.safeio import read_regular

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: the everyday path does without it
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

CACHE_FORMAT = 1
MAX_ENTRY_BYTES = 1 << 20  # an entry holds a few windows of a dozen lines: anything bigger is not ours
MAX_WINDOWS = 100  # per file: a file with more raising lines than this keeps those nearest its top
# What a view shows of an entry: the lines `update` keeps (LIBRARY_CONTEXT either side of the raising line),
# each cut to MAX_LINE_CHARS, and this many characters in all: a crafted entry holds what it likes.
MAX_SHOWN_CHARS = 4000
_COMMIT = lazy_regex(r"[0-9a-f]{7,40}")
_REPO = lazy_regex(r"[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+")
_BLOB_COMMIT = lazy_regex(r"/blob/([0-9a-fA-F]{7,40})/")
_OLD_NAME = lazy_regex(r"[0-9a-f]{32}\.json")  # sha256(repo, commit, path)[:32]: the key before this one


def sources_dir(environ: Mapping[str, str]) -> Path:
    from pathlib import Path  # `update` and tests: explaining reads `LocalPaths.sources`, a string

    return Path(cache_dir(environ)) / "sources"


def _safe_path(path: str) -> bool:
    parts = path.split("/")
    return bool(path) and not path.startswith("/") and ".." not in parts and not any(c < " " or c == "\\" for c in path)


def record_commit(record: Record) -> str | None:
    """The commit the record's facts were read at: `analyzedSha`, else the one in its GitHub link."""
    if record.analyzedSha:
        return record.analyzedSha
    found = _BLOB_COMMIT.search(record.githubUrl or "")
    return found.group(1) if found else None


def _place(
    repo: str, commit: str | None, path: str | None, line: int | None, pattern: str, variant: bool
) -> SourcePlace | None:
    commit = (commit or "").lower()
    if not (_REPO.fullmatch(repo) and _COMMIT.fullmatch(commit) and path and _safe_path(path) and line and line > 0):
        return None
    return SourcePlace(repo, commit, path, line, pattern, variant)


def places(record: Record) -> list[SourcePlace]:
    """The record's own commit first, then each `messageVariants` entry that names a commit and a line
    (in the record's file unless it names another): where to look, in order."""
    found = [
        _place(record.repo, record_commit(record), record.filePath, record.lineNumber, record.messagePattern, False)
    ]
    for variant in record.messageVariants:
        if variant.commit:
            path = variant.filePath or record.filePath
            found.append(_place(record.repo, variant.commit, path, variant.lineNumber, variant.messagePattern, True))
    unique = dict.fromkeys(p for p in found if p is not None)
    return list(unique)


def entry_name(repo: str, commit: str, path: str) -> str:
    """The file name of a place's entry: 64 bits of checksum, not a secret nor a defence (the entry names its
    place, and is checked against it), but a name no record can steer, and one that two files of the
    cache share by chance about once in 10^15 pairs."""
    key = f"{repo}\n{commit}\n{path}".encode()
    return f"{zlib.crc32(key):08x}{zlib.adler32(key):08x}.json"


def entry_path(root: str | os.PathLike[str], place: SourcePlace) -> str:
    return os.path.join(root, entry_name(place.repo, place.commit, place.path))


def _is_window(window: Any) -> bool:
    return (
        isinstance(window, dict)
        and all(isinstance(window.get(k), int) and window[k] > 0 for k in ("wanted", "line", "start"))
        and isinstance(window.get("lines"), list)
        and all(isinstance(text, str) for text in window["lines"])
        and window["start"] <= window["line"] < window["start"] + len(window["lines"])
    )


def _read_entry_file(path: str) -> dict[str, Any] | None:
    """The entry in the file at `path`, or None when it is not one of ours."""
    try:
        # Checked once open, never followed: a FIFO, device or symlink there is not an entry (nor hangs the run).
        entry = json.loads(read_regular(path, MAX_ENTRY_BYTES, follow=False))
    except (OSError, ValueError, RecursionError):
        return None
    if not isinstance(entry, dict) or entry.get("format") != CACHE_FORMAT:
        return None
    if not all(isinstance(entry.get(k), str) for k in ("repo", "commit", "path")):
        return None
    windows = entry.get("windows")
    if not isinstance(windows, list) or not all(_is_window(w) for w in windows):
        return None
    return entry


def read_entry(root: str | os.PathLike[str], place: SourcePlace) -> dict[str, Any] | None:
    """The cache entry of the place's file, or None when there is none (or it is not one of ours)."""
    entry = _read_entry_file(entry_path(root, place))
    if entry is None or (entry["repo"], entry["commit"], entry["path"]) != (place.repo, place.commit, place.path):
        return None
    return entry


def adopt_old_entries(root: str | os.PathLike[str]) -> int:
    """Rename the entries an earlier `update` named by the SHA-256 key to their names now (each entry names
    its place); those that are not entries, or whose place has an entry already, are removed. How many
    were renamed. OSError when the folder cannot be listed or changed."""
    adopted = 0
    try:
        names = [name for name in os.listdir(root) if _OLD_NAME.fullmatch(name)]
    except FileNotFoundError:
        return 0
    for name in names:
        old = os.path.join(root, name)
        entry = _read_entry_file(old)
        new = None if entry is None else os.path.join(root, entry_name(entry["repo"], entry["commit"], entry["path"]))
        if new is not None and not os.path.lexists(new):
            os.replace(old, new)
            adopted += 1
        elif os.path.isfile(old) or os.path.islink(old):  # a FIFO or a folder someone put there: left alone
            os.unlink(old)
    return adopted


def _window(entry: dict[str, Any] | None, wanted: int) -> dict[str, Any] | None:
    return next((w for w in entry["windows"] if w["wanted"] == wanted), None) if entry else None


def is_cached(root: str | os.PathLike[str], place: SourcePlace) -> bool:
    return _window(read_entry(root, place), place.line) is not None


def github_line_url(place: SourcePlace, line: int) -> str:
    return f"https://github.com/{place.repo}/blob/{place.commit}/{place.path}#L{line}"


def cached_snippet(record: Record, root: str | os.PathLike[str]) -> CachedSnippet | None:
    """The record's lines from the cache: at its own commit, else at the first `messageVariants` entry cached."""
    if not os.path.isdir(root):  # `update` never ran: no entry to read (nor a name to hash)
        return None
    for place in places(record):
        window = _window(read_entry(root, place), place.line)
        if window is not None:
            start, lines = shown_lines(window["line"], window["start"], window["lines"])
            return CachedSnippet(
                repo=place.repo,
                commit=place.commit,
                path=place.path,
                line=window["line"],
                start=start,
                lines=lines,
                language=language_of(place.path),
                url=github_line_url(place, window["line"]),
            )
    return None


def shown_lines(line: int, start: int, lines: Sequence[str]) -> tuple[int, tuple[str, ...]]:
    """(the first line's number, the lines) of a window a view may show: those within LIBRARY_CONTEXT of the
    raising line, each one line (to its first break) of at most MAX_LINE_CHARS, and lines dropped from the far
    end while there are more than MAX_SHOWN_CHARS in all (the raising line is always kept)."""
    first = max(start, line - LIBRARY_CONTEXT)
    near = lines[first - start : line - start + LIBRARY_CONTEXT + 1]
    kept = [(text.splitlines() or [""])[0][:MAX_LINE_CHARS] for text in near]
    at = line - first  # the raising line's place in `kept`
    while len(kept) > 1 and sum(map(len, kept)) > MAX_SHOWN_CHARS:
        if at >= len(kept) - 1 - at:  # more lines before it than after: one from the top
            kept.pop(0)
            first, at = first + 1, at - 1
        else:
            kept.pop()
    return first, tuple(kept)


class Window(NamedTuple):
    """The lines kept for one raising line of a fetched file."""

    wanted: int  # the line the record names
    line: int  # the line the message was found on
    start: int
    lines: tuple[str, ...]


def save_windows(root: str | os.PathLike[str], place: SourcePlace, windows: Sequence[Window]) -> None:
    """Add windows to the entry of the place's file (replacing those for the same lines), atomically."""
    from leafexplain.records.index.write import write_index  # the one atomic writer: a temporary file, then a rename

    entry = read_entry(root, place)
    new = {w.wanted: {"wanted": w.wanted, "line": w.line, "start": w.start, "lines": list(w.lines)} for w in windows}
    kept = [w for w in (entry["windows"] if entry else []) if w["wanted"] not in new]
    merged = sorted([*kept, *new.values()], key=lambda w: w["wanted"])[:MAX_WINDOWS]
    document = {"format": CACHE_FORMAT, "repo": place.repo, "commit": place.commit, "path": place.path}
    document["windows"] = merged
    write_index(entry_path(root, place), json.dumps(document, ensure_ascii=True).encode("ascii"))
