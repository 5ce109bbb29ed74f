"""The source cache that `leafexplain update` fills: the lines around each record's raising line, by repo, commit
and path, read back at explain time without going online.

One JSON file per (repo, commit, path) in `$XDG_CACHE_HOME/leafexplain/sources/`, named by a hash of the
three (so that no record can name a path outside the folder). It holds a window of lines for each
raising line asked for in that file, keyed by the line the record names:

    {"format": 1, "repo": "tracel-ai/burn", "commit": "75b78813…", "path": "crates/…/tensor.rs",
     "windows": [{"wanted": 90, "line": 90, "start": 84, "lines": ["…", "…"]}]}

`line` is where the message was found when the file was fetched (the record's line, or the nearest
line that has the message). Files are replaced whole, atomically: a reader sees the old entry or
the new one, and an entry that does not read back as this shape is treated as missing.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path

from leafexplain.env import cache_dir
from leafexplain.locate.files import language_of
from leafexplain.models import CachedSnippet, Record, SourcePlace
from leafexplain.named import NamedTuple
from leafexplain.regex import lazy_regex
from leafexplain.safeio import read_regular

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: the everyday path does without it
if TYPE_CHECKING:
    from typing import Any

CACHE_FORMAT = 1
MAX_ENTRY_BYTES = 1 << 20  # an entry holds a few windows of a dozen lines: anything bigger is not ours
MAX_WINDOWS = 100  # per file: a file with more raising lines than this keeps those nearest its top
_COMMIT = lazy_regex(r"[0-9a-f]{7,40}")
_REPO = lazy_regex(r"[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+")
_BLOB_COMMIT = lazy_regex(r"/blob/([0-9a-fA-F]{7,40})/")


def sources_dir(environ: Mapping[str, str]) -> Path:
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


def entry_path(root: str | Path, place: SourcePlace) -> Path:
    import hashlib  # only when a record has no source of its own: OpenSSL takes a while to load

    key = hashlib.sha256(f"{place.repo}\n{place.commit}\n{place.path}".encode()).hexdigest()[:32]
    return Path(root) / f"{key}.json"


def _is_window(window: Any) -> bool:
    return (
        isinstance(window, dict)
        and all(isinstance(window.get(k), int) and window[k] > 0 for k in ("wanted", "line", "start"))
        and isinstance(window.get("lines"), list)
        and all(isinstance(text, str) for text in window["lines"])
        and window["start"] <= window["line"] < window["start"] + len(window["lines"])
    )


def read_entry(root: str | Path, place: SourcePlace) -> dict[str, Any] | None:
    """The cache entry of the place's file, or None when there is none (or it is not one of ours)."""
    try:
        # Checked once open, never followed: a FIFO, device or symlink there is not an entry (nor hangs the run).
        entry = json.loads(read_regular(entry_path(root, place), MAX_ENTRY_BYTES, follow=False))
    except (OSError, ValueError, RecursionError):
        return None
    if not isinstance(entry, dict) or entry.get("format") != CACHE_FORMAT:
        return None
    if (entry.get("repo"), entry.get("commit"), entry.get("path")) != (place.repo, place.commit, place.path):
        return None
    windows = entry.get("windows")
    if not isinstance(windows, list) or not all(_is_window(w) for w in windows):
        return None
    return entry


def _window(entry: dict[str, Any] | None, wanted: int) -> dict[str, Any] | None:
    return next((w for w in entry["windows"] if w["wanted"] == wanted), None) if entry else None


def is_cached(root: str | Path, place: SourcePlace) -> bool:
    return _window(read_entry(root, place), place.line) is not None


def github_line_url(place: SourcePlace, line: int) -> str:
    return f"https://github.com/{place.repo}/blob/{place.commit}/{place.path}#L{line}"


def cached_snippet(record: Record, root: str | Path) -> CachedSnippet | None:
    """The record's lines from the cache: at its own commit, else at the first `messageVariants` entry cached."""
    if not os.path.isdir(root):  # `update` never ran: no entry to read (nor a name to hash)
        return None
    for place in places(record):
        window = _window(read_entry(root, place), place.line)
        if window is not None:
            return CachedSnippet(
                repo=place.repo,
                commit=place.commit,
                path=place.path,
                line=window["line"],
                start=window["start"],
                lines=tuple(window["lines"]),
                language=language_of(place.path),
                url=github_line_url(place, window["line"]),
            )
    return None


class Window(NamedTuple):
    """The lines kept for one raising line of a fetched file."""

    wanted: int  # the line the record names
    line: int  # the line the message was found on
    start: int
    lines: tuple[str, ...]


def save_windows(root: str | Path, place: SourcePlace, windows: Sequence[Window]) -> None:
    """Add windows to the entry of the place's file (replacing those for the same lines), atomically."""
    from leafexplain.records.index import write_index  # the one atomic writer: a temporary file, then a rename

    entry = read_entry(root, place)
    new = {w.wanted: {"wanted": w.wanted, "line": w.line, "start": w.start, "lines": list(w.lines)} for w in windows}
    kept = [w for w in (entry["windows"] if entry else []) if w["wanted"] not in new]
    merged = sorted([*kept, *new.values()], key=lambda w: w["wanted"])[:MAX_WINDOWS]
    document = {"format": CACHE_FORMAT, "repo": place.repo, "commit": place.commit, "path": place.path}
    document["windows"] = merged
    write_index(entry_path(root, place), json.dumps(document, ensure_ascii=True).encode("ascii"))
