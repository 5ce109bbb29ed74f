"""The record's file as installed on this machine: found from the frames, else where its library is installed,
with the message located in it and the drift from the record's commit said in words."""

from __future__ import annotations

import os
import sys

from leafexplain.libraries import (
    CPYTHON_REPO,
    PYTHON_LIB,
    RUST_REPO,
    crate_parts,
    ends_with,
    norm_path,
    python_tail,
    rust_variants,
    version_from_dirs,
)
from leafexplain.locate.files import Found, LocalPaths, language_of, read_lines_cached, resolve, stamp, window
from leafexplain.locate.message import locate_message
from leafexplain.models import Drift, ErrorEvent, Frame, LibrarySource, Record
from leafexplain.regex import lazy_regex
from leafexplain.safeio import inside, realpath

LIBRARY_CONTEXT = 6  # lines either side of the message in the library
# Where libraries are installed, whoever's machine the frames come from: a Python's packages and standard
# library, a Rust toolchain's rust-src, cargo's registry and git checkouts.
_LIBRARY_FOLDER = lazy_regex(
    r"/(?:site|dist)-packages/|/lib(?:64)?/python\d+(?:\.\d+)?t?/|/Lib/"
    r"|/lib/rustlib/src/rust/|/\.cargo/(?:registry/src|git/checkouts)/|/\.rustup/toolchains/"
)


def forget_listings() -> None:
    """Folder listings (toolchains, crates, installed packages) are read again by the next lookup."""
    # The Rust and Python lookups are imported by the first explanation that needs them (a Rust panic never
    # looks for a Python package): one that is not imported yet has listed nothing.
    for name in ("leafexplain.locate.rust", "leafexplain.locate.python", "leafexplain.locate.raised_python"):
        module = sys.modules.get(name)
        if module is not None:
            module.forget_listings()


def _event_frames(event: ErrorEvent) -> list[Frame]:
    frames = [event.location] if event.location else []
    return frames + [f for f in event.frames if f != event.location]


def _library_file(frame: Frame, paths: LocalPaths) -> tuple[str, str] | None:
    """(the path as shown, the resolved path checked) of the file a frame names, when it exists here in a library
    location (or in your own folders): a frame that ends like the record's file but lies anywhere else
    (`/etc/...`) is not read, and the checked path is the one opened (following nothing: `files.stamp`)."""
    found = resolve(frame.file, paths)
    if found is None:
        return None
    real = realpath(found)
    join = os.path.join
    homes = [join(paths.cargo_home, "registry", "src"), join(paths.cargo_home, "git", "checkouts")]
    homes += [join(paths.rustup_home, "toolchains"), *paths.system_rust_src, *paths.roots]
    if paths.stdlib is not None:
        homes.append(paths.stdlib)
    if _LIBRARY_FOLDER.search(norm_path(real)) or any(inside(real, home) for home in homes):
        return found, real
    return None


def _from_frames(record: Record, rel: str, frames: list[Frame], paths: LocalPaths) -> Found | None:
    """The frames' own paths, when the file they name exists here in a library location."""
    if rel.endswith(".rs"):
        from leafexplain.locate.rust import cargo_version

        tails = rust_variants(rel)
        parts = crate_parts(record, rel)
        for frame in frames:
            if any(ends_with(frame.file, t) for t in tails):
                checked = _library_file(frame, paths)
                if checked:
                    found, real = checked
                    version = None
                    if parts and record.repo != RUST_REPO:
                        cut = found.rfind(os.sep + parts[0] + os.sep)
                        version = cargo_version(found[: cut + len(parts[0]) + 1]) if cut >= 0 else None
                    return Found(found, f"{parts[0]} {version}" if parts and version else None, frame.line, real=real)
            if parts and ends_with(frame.file, parts[1]):
                named = version_from_dirs(frame.file, parts[0])
                checked = _library_file(frame, paths) if named else None
                if checked and named:
                    return Found(checked[0], f"{named[0]} {named[1]}", frame.line, real=checked[1])
        return None
    tail = python_tail(record, rel)
    if tail is None:
        return None
    from leafexplain.locate.python import python_version_of

    for frame in frames:
        if not ends_with(frame.file, tail):
            continue
        if record.repo == CPYTHON_REPO and not PYTHON_LIB.search(norm_path(frame.file)[: -len(tail)]):
            continue  # a `json/decoder.py` of the user's own, not the standard library's
        checked = _library_file(frame, paths)
        if checked:
            found, real = checked
            return Found(found, python_version_of(found, paths, tail.split("/")[0]), frame.line, real=real)
    return None


def _drift_note(record: Record, line: int | None, exact: bool) -> tuple[Drift, str]:
    at = f"the analysed commit {record.analyzedSha[:10]}" if record.analyzedSha else "the record"
    was = record.lineNumber
    if line is None:
        where = f" (line {was} at {at})" if was else ""
        return "gone", f"Drift: the message is not in this file{where}."
    if not exact:
        return "changed", f"Drift: the message's wording differs from {at}; the closest line is {line}."
    if was is None:
        return "unknown", f"The message is at line {line}."
    if line == was:
        return "none", f"No drift: the message is at line {line}, as at {at}."
    return "moved", f"Drift: the message moved to line {line} (line {was} at {at})."


def library_source(
    record: Record, event: ErrorEvent, paths: LocalPaths, context: int = LIBRARY_CONTEXT
) -> LibrarySource | None:
    """The record's file as installed here, with the message located in it; None when it is not here."""
    rel = norm_path(record.filePath or "").lstrip("/")
    if not rel or ".." in rel.split("/"):
        return None  # a path inside the repository, or nothing: `..` would lead out of the library's folder
    frames = _event_frames(event)
    found = _from_frames(record, rel, frames, paths)
    if found is None:
        if record.repo == RUST_REPO:
            from leafexplain.locate.rust import rust_std

            found = rust_std(rel, frames, paths)
        elif rel.endswith(".rs"):
            from leafexplain.locate.rust import cargo_registry

            found = cargo_registry(record, rel, frames, paths)
        else:
            from leafexplain.locate.python import python_installed

            found = python_installed(record, rel, paths)
    if found is None:
        return None
    real = found.real or realpath(found.path)  # a frame's file is opened at the path that was checked
    file_stamp = stamp(real)
    lines = read_lines_cached(real, file_stamp) if file_stamp else None
    if lines is None or file_stamp is None:
        return None
    hint = found.hint or record.lineNumber or 0
    line, exact = locate_message(real, file_stamp, record.messagePattern, hint)
    drift, note = _drift_note(record, line, exact)
    if found.note:
        note = f"{note} {found.note}"
    start, shown = window(lines, line, context) if line else (1, ())
    url = found.url
    if url and found.url_exact and line:
        url += f"#L{line}"
    return LibrarySource(
        path=found.path,
        version=found.version,
        line=line,
        start=start,
        lines=shown,
        drift=drift,
        note=note,
        language=language_of(found.path),
        url=url,
    )
