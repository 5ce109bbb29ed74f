"""Record files: which folders to read, in which order, and each record object in a file, read in bounded memory."""

from __future__ import annotations

import os
import stat
import zlib
from collections.abc import Iterable, Iterator, Mapping

from leafexplain.bundled import bundled_dir, installed_dir
from leafexplain.env import data_home
from leafexplain.jsoncodec import loads
from leafexplain.models import Problem
from leafexplain.safeio import open_regular

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: the everyday path does without it
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any, BinaryIO

Environ = Mapping[str, str]
RECORD_SUFFIXES = (".json", ".txt", ".jsonl")
# Where a record lies: file number, byte offset, length, array item (-1: none), line (0: none), and the CRC-32
# of those bytes (a shipped record read back as the same bytes need not have its shapes checked again).
Location = tuple[int, int, int, int, int, int]
_NOWHERE = (0, 0, 0, -1, 0, 0)
# A single-record file is parsed whole; anything this large is not one record. Parsed JSON takes
# up to ~25 times its size (a file of `[],[],...` is a list per 3 bytes), so these bound memory too.
MAX_SINGLE_FILE_BYTES = 16 * 1024 * 1024
MAX_LINE_BYTES = 8 * 1024 * 1024
MAX_SKIP_BYTES = 64 * 1024 * 1024  # a line past MAX_LINE_BYTES is skipped to its end, this far at most
SKIP_PIECE_BYTES = 1 << 20


def bundled_records_dir() -> str:
    return bundled_dir("records")


def user_records_dir(environ: Environ = os.environ) -> str:
    return os.path.join(data_home(environ), "leafexplain", "records")


def sealed_records_dir() -> str | None:
    """The bundled records of an installed wheel: files an install writes and the next one replaces whole, with
    their folder. Its folder's identity and time stand for all of them: a run need not stat every file."""
    return installed_dir("records")


# A sealed folder, as it stands: (device, inode, modification time in ns).
Seal = tuple[int, int, int]
Fingerprint = list[tuple[str, int, int, int]]  # (path, size, mtime_ns, source number) of each record file


def sealed_sources(paths: Iterable[tuple[str, bool]]) -> dict[int, Seal]:
    """Which of the record paths are sealed (by their number), each with its seal."""
    sealed = sealed_records_dir()
    seals: dict[int, Seal] = {}
    for number, (root, _) in enumerate(paths):
        if sealed is not None and root == sealed:
            try:
                st = os.stat(root)
            except OSError:
                continue  # scanned as any folder is, and its problem reported there
            seals[number] = (st.st_dev, st.st_ino, st.st_mtime_ns)
    return seals


MAX_FOLDERS = 50_000  # folders walked below one records folder


def record_paths(
    extra: Iterable[str] = (),
    *,
    bundled: bool = True,
    configured: bool = True,
    environ: Environ = os.environ,
) -> list[tuple[str, bool]]:
    """Paths in load order, each with whether it must exist (the user named it).

    `configured` takes in the user's data folder and LEAFEXPLAIN_RECORDS.
    """
    sources: list[tuple[str, bool]] = []
    if bundled:
        sources.append((bundled_records_dir(), False))
    if configured:
        sources.append((user_records_dir(environ), False))
        for entry in environ.get("LEAFEXPLAIN_RECORDS", "").split(os.pathsep):
            if entry.strip():
                sources.append((os.path.expanduser(entry), True))
    sources.extend((os.path.expanduser(p), True) for p in extra)
    return sources


def iter_record_files(root: str | Path, problems: list[Problem] | None = None) -> Iterator[Path]:
    """Record files below a folder, in a stable order; a file is taken as it is. A folder that cannot be read
    (no permission, a symlink loop) and a root that is neither a file nor a folder are added to `problems`
    and skipped. Symlinks to folders are not followed, so no loop among folders is ever walked."""
    from pathlib import Path  # not on the everyday path, which uses `record_file_names`

    return map(Path, record_file_names(root, problems))


def record_file_names(root: str | Path, problems: list[Problem] | None = None) -> Iterator[str]:
    """`iter_record_files` as strings: every run checks hundreds of record files, and a Path each costs more
    than the check."""
    found = [] if problems is None else problems
    try:
        mode = os.stat(root).st_mode
    except OSError as exc:
        found.append(Problem(str(root), f"cannot read: {exc.strerror or exc}"))
        return
    if stat.S_ISREG(mode):
        yield str(root)
        return
    if not stat.S_ISDIR(mode):
        found.append(Problem(str(root), "not a regular file or a folder"))
        return

    if os.path.realpath(root) == os.path.realpath(os.sep):  # `LEAFEXPLAIN_RECORDS=/`: the whole machine
        found.append(Problem(str(root), "the file system's root is not a records folder: skipped"))
        return

    def unreadable(exc: OSError) -> None:
        found.append(Problem(str(exc.filename or root), f"cannot read this folder: {exc.strerror or exc}"))

    for walked, (dirpath, dirnames, filenames) in enumerate(os.walk(root, onerror=unreadable)):
        if walked == MAX_FOLDERS:  # a folder of records is not a disk: the walk ends, said once
            found.append(Problem(str(root), f"more than {MAX_FOLDERS:,} folders below it: the rest is not read"))
            return
        dirnames.sort()
        for name in sorted(filenames):
            if name.endswith(RECORD_SUFFIXES) and not name.startswith("."):
                yield os.path.join(dirpath, name)


def scan_files(
    paths: list[tuple[str, bool]], sealed: Mapping[int, Seal] = {}
) -> tuple[Fingerprint, list[Problem], list[str]]:
    """Every record file in load order, with its size and time, and which of `paths` it is from.

    The path's number goes into the fingerprint too: a duplicate id within one source is a
    mistake to report, while a later source replacing an id is how users override records.
    The files of a `sealed` source are not listed: its seal stands for them (files.sealed_sources).
    """
    files: Fingerprint = []
    problems: list[Problem] = []
    used: list[str] = []
    for source_number, (root, required) in enumerate(paths):
        if not os.path.exists(root) and not os.path.lexists(root):
            if required:
                problems.append(Problem(str(root), "no such file or folder"))
            continue
        used.append(str(root))
        if source_number in sealed:
            continue
        for path in record_file_names(root, problems):  # a loop or an unreadable folder: a problem, skipped
            try:
                st = os.stat(path)
            except OSError as exc:
                problems.append(Problem(path, f"cannot read: {exc.strerror or exc}"))
                continue
            if not stat.S_ISREG(st.st_mode):  # a FIFO or a device would block or never end
                problems.append(Problem(path, "not a regular file"))
                continue
            files.append((path, st.st_size, st.st_mtime_ns, source_number))
    return files, problems, used


def unwrap(data: Any) -> tuple[Any, str | None]:
    """A dataset wrapper {"record": {...}, "datasetVersion": ...} or a bare record."""
    if isinstance(data, dict) and isinstance(data.get("record"), dict):
        version = data.get("datasetVersion")
        return data["record"], version if isinstance(version, str) else None
    return data, None


def describe_json_error(exc: Exception) -> str:
    from json import JSONDecodeError  # imported already: json itself raised it (jsoncodec.py)

    if isinstance(exc, JSONDecodeError):
        return f"not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})"
    if isinstance(exc, RecursionError):
        return "not valid JSON: nested too deeply"
    if isinstance(exc, UnicodeDecodeError):
        return f"not UTF-8 text: byte {exc.start}"
    return f"not valid JSON: {exc}"


def _bounded_lines(handle: BinaryIO) -> Iterator[tuple[int, bytes | None, int]]:
    """(line number, the line or None when longer than MAX_LINE_BYTES, its length): a line of any
    length (a 2 GB file without a newline) is skipped in pieces, never held whole."""
    number = 0
    while raw := handle.readline(MAX_LINE_BYTES + 1):
        number += 1
        if len(raw) <= MAX_LINE_BYTES or raw.endswith(b"\n"):
            yield number, raw, len(raw)
            continue
        length = len(raw)
        while piece := handle.read(SKIP_PIECE_BYTES):
            end = piece.find(b"\n")
            if end >= 0:
                length += end + 1
                handle.seek(end + 1 - len(piece), os.SEEK_CUR)
                break
            length += len(piece)
            if length > MAX_SKIP_BYTES:  # no record file has such a line: what follows is not records either
                yield number, None, -1
                return
        yield number, None, length


def raw_records(path: str, size: int) -> Iterator[tuple[object, str | None, Location, list[Problem]]]:
    """Each record object in a file, where it lies, and file-level problems."""
    if path.endswith(".jsonl"):
        offset = 0
        with open_regular(path, buffering=SKIP_PIECE_BYTES) as handle:  # a FIFO or device: refused, never read
            for number, raw, length in _bounded_lines(handle):
                here, offset = offset, offset + length
                if raw is not None and not raw.strip():
                    continue
                if raw is None:
                    said = f"line longer than {MAX_LINE_BYTES} bytes" + (
                        f", with no line end in {MAX_SKIP_BYTES >> 20} MB: the rest of the file is not read"
                        if length < 0
                        else ""
                    )
                    yield None, None, _NOWHERE, [Problem(path, said, line=number)]
                    continue
                try:
                    data, version = unwrap(loads(raw))
                except (ValueError, RecursionError) as exc:
                    yield None, None, _NOWHERE, [Problem(path, describe_json_error(exc), line=number)]
                    continue
                yield data, version, (0, here, len(raw), -1, number, zlib.crc32(raw)), []
        return
    too_large = [Problem(path, f"{size} bytes is too large for a record file; use .jsonl")]
    if size > MAX_SINGLE_FILE_BYTES:
        yield None, None, _NOWHERE, too_large
        return
    try:
        with open_regular(path) as handle:
            content = handle.read(MAX_SINGLE_FILE_BYTES + 1)  # it may have grown since it was listed
        if len(content) > MAX_SINGLE_FILE_BYTES:
            yield None, None, _NOWHERE, too_large
            return
        parsed = loads(content)
    except (ValueError, RecursionError) as exc:
        yield None, None, _NOWHERE, [Problem(path, describe_json_error(exc))]
        return
    crc = zlib.crc32(content)
    if isinstance(parsed, list):
        for item, entry in enumerate(parsed):
            data, version = unwrap(entry)
            yield data, version, (0, 0, size, item, item + 1, crc), []
    else:
        data, version = unwrap(parsed)
        yield data, version, (0, 0, size, -1, 0, crc), []
