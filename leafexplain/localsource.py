"""Find the user's code and the library's source on this machine: a few stats and small reads, nothing slow."""

from __future__ import annotations

import contextlib
import os
import re
import sys
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Literal

from leafexplain.models import ErrorEvent, Frame, Match, Record
from leafexplain.patterns import split_pattern

Drift = Literal["none", "moved", "changed", "gone", "unknown"]

USER_CONTEXT = 3  # lines either side of the user's line
CODE_SEARCH = 30  # lines either side where a traceback's code line is looked for when the file changed
LIBRARY_CONTEXT = 6  # lines either side of the message in the library
MAX_FILE_BYTES = 2_000_000  # bigger files are generated or minified: not worth reading
MAX_LINE_CHARS = 400
RUST_REPO = "rust-lang/rust"
CPYTHON_REPO = "python/cpython"
GITHUB = "https://github.com"

_RUSTC_SHA = re.compile(r"/rustc/([0-9a-f]{40})/")
_RUSTC_VERSION = re.compile(rb'\[pkg\.rustc\]\s*\nversion = "([^"\n]{1,100})"')
_VERSIONED_DIR = re.compile(r"(?:^|/)([A-Za-z0-9_.-]+?)-(\d+\.\d+[^/]*)/")
_PYTHON_LIB = re.compile(r"/(?:lib/python(\d+\.\d+)t?|Lib)/")
_ESCAPED = re.compile(r"[\n\"\\{}%]")
_WORD_WINDOW = 3  # words per anchor when looking for a message whose wording changed
_MAX_ANCHORS = 12
# pytorch ships its C++ headers inside the wheel, under torch/include.
_HEADER_HOMES = {
    "pytorch/pytorch": (
        ("aten/src/ATen/templates/", "torch/include/ATen/core/"),
        ("aten/src/ATen/", "torch/include/ATen/"),
        ("c10/", "torch/include/c10/"),
        ("torch/csrc/", "torch/include/torch/csrc/"),
    )
}
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
class Snippet:
    """Lines of a local file around one line (the user's frame)."""

    path: str
    line: int
    start: int  # the line number of lines[0]
    lines: tuple[str, ...]
    language: str = "text"
    note: str = ""  # when the file changed since the run


@dataclass(frozen=True)
class LibrarySource:
    """Where a record's message stands in the library installed here, and how that differs from the record."""

    path: str
    version: str | None
    line: int | None  # None when the message is gone from the file
    start: int
    lines: tuple[str, ...]
    drift: Drift
    note: str  # the drift in words
    language: str = "text"
    url: str | None = None  # the file at the toolchain commit of the backtrace (Rust std)


@dataclass(frozen=True)
class EventSources:
    """What was found for one event: the user's code, and the library source of each of `Match.matches`."""

    user: Snippet | None = None
    library: tuple[LibrarySource | None, ...] = ()


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

    @classmethod
    def from_process(cls, root: Path | None = None) -> LocalPaths:
        home = Path(os.path.expanduser("~"))
        try:
            cwd: list[Path] = [Path.cwd()]
        except OSError:  # the folder was removed under us
            cwd = []
        roots = tuple(dict.fromkeys([root.resolve(), *cwd] if root is not None else cwd))
        return cls(
            roots=roots,
            cargo_home=Path(os.environ.get("CARGO_HOME") or home / ".cargo"),
            rustup_home=Path(os.environ.get("RUSTUP_HOME") or home / ".rustup"),
            stdlib=Path(os.__file__).parent,  # `os` is always in the standard library's folder
            python_version="Python " + sys.version.split()[0],
        )


def find_sources(matches: Sequence[Match], paths: LocalPaths) -> tuple[EventSources, ...]:
    """For each event: its user frame's code, and each matched record's installed source."""
    return tuple(
        EventSources(user_snippet(m.event, paths), tuple(library_source(c.record, m.event, paths) for c in m.matches))
        for m in matches
    )


# --- reading files ------------------------------------------------------------------------------------------------


def language_of(path: str) -> str:
    return _LANGUAGES.get(Path(path).suffix.lower(), "text")


def _stamp(path: Path) -> tuple[int, int] | None:
    try:
        st = path.stat()
    except (OSError, ValueError):
        return None
    if not path.is_file() or st.st_size > MAX_FILE_BYTES:
        return None
    return st.st_mtime_ns, st.st_size


@lru_cache(maxsize=64)
def _read_lines_cached(path: str, stamp: tuple[int, int]) -> tuple[str, ...] | None:
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
    stamp = _stamp(path)
    return None if stamp is None else _read_lines_cached(str(path), stamp)


def _window(lines: tuple[str, ...], line: int, context: int) -> tuple[int, tuple[str, ...]]:
    start = max(line - context, 1)
    return start, lines[start - 1 : line + context]


def _is_file(path: Path) -> bool:
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
        return candidate if _is_file(candidate) else None
    for root in paths.roots:
        if _is_file(root / candidate):
            return root / candidate
    return None


# --- your code ------------------------------------------------------------------------------------------------------


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
    start, window = _window(lines, line, context)
    return Snippet(str(found), line, start, window, language_of(found.name), note)


# --- the library's file ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Found:
    path: Path
    version: str | None
    hint: int | None  # a frame's line in this file: where to look first
    url: str | None = None
    url_exact: bool = False  # the local file is the backtrace's commit: the url can point at the line
    note: str = ""


def _norm(path: str) -> str:
    path = path.replace("\\", "/")
    while path.startswith("./"):
        path = path[2:]
    return path


def _ends_with(frame_path: str, tail: str) -> bool:
    path = _norm(frame_path)
    return path == tail or path.endswith("/" + tail)


def _event_frames(event: ErrorEvent) -> list[Frame]:
    frames = [event.location] if event.location else []
    return frames + [f for f in event.frames if f != event.location]


def _frame_hint(frames: Iterable[Frame], tails: Sequence[str]) -> int | None:
    return next((f.line for f in frames if f.line and any(_ends_with(f.file, t) for t in tails)), None)


def _rust_variants(rel: str) -> list[str]:
    """A module file moves between `x.rs` and `x/mod.rs` as it grows."""
    if rel.endswith("/mod.rs"):
        return [rel, rel[: -len("/mod.rs")] + ".rs"]
    if rel.endswith(".rs"):
        return [rel, rel[:-3] + "/mod.rs"]
    return [rel]


def _crate_parts(record: Record, rel: str) -> tuple[str, str] | None:
    """`crates/burn-autodiff/src/tensor.rs` -> (`burn-autodiff`, `src/tensor.rs`)."""
    parts = rel.split("/")
    if "src" not in parts:
        return None
    i = parts.index("src")
    crate = parts[i - 1] if i > 0 else record.repo.rsplit("/", 1)[-1]
    return crate, "/".join(parts[i:])


def _python_tail(record: Record, rel: str) -> str | None:
    """The path of a record's Python file below its import root: `torch/autograd/__init__.py`."""
    if record.repo == CPYTHON_REPO:
        return rel[len("Lib/") :] if rel.startswith("Lib/") and rel.endswith(".py") else None
    if not rel.endswith((".py", ".pyi")):
        return None
    for prefix in ("src/", "lib/"):
        if rel.startswith(prefix):
            return rel[len(prefix) :]
    return rel


def _header_tail(record: Record, rel: str) -> str | None:
    if not rel.endswith((".h", ".hpp", ".cuh")):
        return None  # wheels ship headers, never the .cpp files
    for prefix, home in _HEADER_HOMES.get(record.repo, ()):
        if rel.startswith(prefix):
            return home + rel[len(prefix) :]
    return None


def _version_from_dirs(path: str, crate: str | None = None) -> tuple[str, str] | None:
    """(name, version) of the innermost `name-1.2.3/` folder in a path (the crate's, when named)."""
    hits = [(m.group(1), m.group(2)) for m in _VERSIONED_DIR.finditer(_norm(path))]
    hits = [h for h in hits if crate is None or h[0] == crate]
    return hits[-1] if hits else None


def _cargo_version(crate_dir: Path) -> str | None:
    """The `version` of a crate checked out in a workspace (or the workspace's, when it inherits it)."""
    for folder, section in ((crate_dir, "[package]"), (crate_dir.parent, None), (crate_dir.parent.parent, None)):
        lines = read_lines(folder / "Cargo.toml")
        if not lines:
            continue
        current = ""
        for line in lines:
            stripped = line.strip()
            if stripped.startswith("["):
                current = stripped
            elif stripped.startswith("version") and current in ((section,) if section else ("[workspace.package]",)):
                value = stripped.split("=", 1)[-1].strip()
                if value.startswith('"'):
                    return value.strip('"')
    return None


def _python_version_of(path: Path, paths: LocalPaths, top: str) -> str | None:
    text = _norm(str(path))
    if paths.stdlib and text.startswith(_norm(str(paths.stdlib)) + "/") and "/site-packages/" not in text:
        return paths.python_version
    if "-packages/" in text:
        site = text[: text.rindex("-packages/") + len("-packages")]
        return _dist_version(Path(site), top)
    lib = _PYTHON_LIB.search(text)
    return f"Python {lib.group(1)}" if lib and lib.group(1) else None


def _from_frames(record: Record, rel: str, frames: list[Frame], paths: LocalPaths) -> _Found | None:
    """The frames' own paths, when the file they name exists here."""
    if rel.endswith(".rs"):
        tails = _rust_variants(rel)
        parts = _crate_parts(record, rel)
        for frame in frames:
            if any(_ends_with(frame.file, t) for t in tails):
                found = resolve(frame.file, paths)
                if found:
                    version = None
                    if parts and record.repo != RUST_REPO:
                        text = str(found)
                        cut = text.rfind(os.sep + parts[0] + os.sep)
                        version = _cargo_version(Path(text[: cut + len(parts[0]) + 1])) if cut >= 0 else None
                    return _Found(found, f"{parts[0]} {version}" if parts and version else None, frame.line)
            if parts and _ends_with(frame.file, parts[1]):
                named = _version_from_dirs(frame.file, parts[0])
                found = resolve(frame.file, paths) if named else None
                if found and named:
                    return _Found(found, f"{named[0]} {named[1]}", frame.line)
        return None
    tail = _python_tail(record, rel)
    if tail is None:
        return None
    for frame in frames:
        if not _ends_with(frame.file, tail):
            continue
        if record.repo == CPYTHON_REPO and not _PYTHON_LIB.search(_norm(frame.file)[: -len(tail)]):
            continue  # a `json/decoder.py` of the user's own, not the standard library's
        found = resolve(frame.file, paths)
        if found:
            return _Found(found, _python_version_of(found, paths, tail.split("/")[0]), frame.line)
    return None


# --- Rust: the standard library (rust-src) and crates.io crates -------------------------------------------------------


@dataclass(frozen=True)
class _RustSrc:
    root: Path  # .../lib/rustlib/src/rust
    version: str | None  # "1.95.0 (59807616e 2026-04-14)"

    @property
    def commit_prefix(self) -> str | None:
        m = re.search(r"\(([0-9a-f]{7,40})", self.version or "")
        return m.group(1) if m else None


def _toolchain_version(sysroot: Path) -> str | None:
    """The rustc version from rustup's channel manifest: one search through a mapped file, no subprocess."""
    manifest = sysroot / "lib" / "rustlib" / "multirust-channel-manifest.toml"
    head = b""
    try:
        import mmap  # imported where used: most runs never look for a Rust toolchain

        with open(manifest, "rb") as handle, mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ) as data:
            at = data.find(b"[pkg.rustc]")
            head = data[at : at + 200] if at >= 0 else b""
    except (OSError, ValueError):
        pass
    m = _RUSTC_VERSION.match(head)
    if m:
        return m.group(1).decode("utf-8", "replace")
    release = re.search(r"rustc-(\d+\.\d+\.\d+)", str(sysroot.resolve()))
    return release.group(1) if release else None


@lru_cache(maxsize=8)
def _rust_sources(rustup_home: Path, system: tuple[Path, ...], rustc: str | None) -> tuple[_RustSrc, ...]:
    """Every rust-src on this machine: rustup's toolchains, the system's, and the one next to a plain `rustc`."""
    sysroots: list[Path] = []
    with contextlib.suppress(OSError):
        sysroots += sorted((rustup_home / "toolchains").iterdir())
    if rustc:
        real = Path(rustc).resolve()
        if real.name.startswith("rustc"):  # not a rustup proxy
            sysroots.append(real.parent.parent)
    found: list[_RustSrc] = []
    for sysroot in sysroots:
        src = sysroot / "lib" / "rustlib" / "src" / "rust"
        if (src / "library").is_dir():
            found.append(_RustSrc(src, _toolchain_version(sysroot)))
    for src in system:
        if (src / "library").is_dir() and all(s.root.resolve() != src.resolve() for s in found):
            found.append(_RustSrc(src, _toolchain_version(src.parent.parent.parent)))
    return tuple(found)


@lru_cache(maxsize=4)
def _rustc_sysroot(rustc: str, cwd: Path) -> Path | None:
    """`rustc --print sysroot`: only run when several toolchains have rust-src and nothing else decides."""
    import subprocess

    try:
        done = subprocess.run([rustc, "--print", "sysroot"], capture_output=True, timeout=5, cwd=cwd, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    out = done.stdout.decode("utf-8", "replace").strip()
    return Path(out) if done.returncode == 0 and out else None


def _rust_std(rel: str, frames: list[Frame], paths: LocalPaths) -> _Found | None:
    import shutil

    rustc = shutil.which("rustc") if paths.rustc_on_path else None
    sources = _rust_sources(paths.rustup_home, paths.system_rust_src, rustc)
    if not sources:
        return None
    sha = next((m.group(1) for f in frames if (m := _RUSTC_SHA.search(_norm(f.file)))), None)
    chosen = next((s for s in sources if sha and s.commit_prefix and sha.startswith(s.commit_prefix)), None)
    if chosen is None and len(sources) == 1:
        chosen = sources[0]
    if chosen is None and rustc:
        sysroot = _rustc_sysroot(rustc, paths.roots[0] if paths.roots else Path.cwd())
        src = (sysroot / "lib" / "rustlib" / "src" / "rust").resolve() if sysroot else None
        chosen = next((s for s in sources if s.root.resolve() == src), None)
    if chosen is None:
        return None
    for variant in _rust_variants(rel):
        file = chosen.root / variant
        if _is_file(file):
            exact = bool(sha and chosen.commit_prefix and sha.startswith(chosen.commit_prefix))
            url = f"{GITHUB}/{RUST_REPO}/blob/{sha}/{variant}" if sha else None
            hint = _frame_hint(frames, [variant]) if exact else None
            version = f"rustc {chosen.version}" if chosen.version else None
            return _Found(file, version, hint, url, exact)
    return None


def _version_key(version: str) -> tuple[tuple[int, ...], int, str]:
    release, _, pre = version.partition("-")
    numbers = tuple(int(n) if n.isdigit() else 0 for n in release.split("+")[0].split("."))
    return numbers, 0 if pre else 1, pre


@lru_cache(maxsize=32)
def _registry_versions(cargo_home: Path, crate: str) -> tuple[tuple[str, Path], ...]:
    """(version, folder) of each copy of a crate in cargo's registry, newest first."""
    found: list[tuple[str, Path]] = []
    try:
        indexes = sorted((cargo_home / "registry" / "src").iterdir())
    except OSError:
        return ()
    prefix = crate + "-"
    for index in indexes:
        try:
            names = [e.name for e in os.scandir(index) if e.name.startswith(prefix)]
        except OSError:
            continue
        for name in names:
            version = name[len(prefix) :]
            if version[:1].isdigit() and "." in version:
                found.append((version, index / name))
    found.sort(key=lambda pair: _version_key(pair[0]), reverse=True)
    return tuple(found)


def _cargo_registry(record: Record, rel: str, frames: list[Frame], paths: LocalPaths) -> _Found | None:
    parts = _crate_parts(record, rel)
    if parts is None:
        return None
    crate, crate_rel = parts
    installed = _registry_versions(paths.cargo_home, crate)
    if not installed:
        return None
    family = crate.split("-")[0] + "-"
    wanted = next((v for f in frames if (v := _version_from_dirs(f.file, crate))), None)
    if wanted is None:  # crates of one workspace share a version: burn-tensor-0.20.1 tells burn-autodiff's
        wanted = next((v for f in frames if (v := _version_from_dirs(f.file)) and v[0].startswith(family)), None)
    chosen = next((pair for pair in installed if wanted and pair[0] == wanted[1]), None)
    note = ""
    if chosen is None:
        chosen = installed[0]
        if wanted:
            note = f"The backtrace's {crate} {wanted[1]} is not installed here; this is {chosen[0]}."
    for variant in _rust_variants(crate_rel):
        file = chosen[1] / variant
        if _is_file(file):
            hint = _frame_hint(frames, [f"{crate}-{chosen[0]}/{variant}"])
            return _Found(file, f"{crate} {chosen[0]}", hint, note=note)
    return None


# --- Python: the standard library and installed packages -------------------------------------------------------------


@lru_cache(maxsize=16)
def _dist_versions(site: Path) -> dict[str, str]:
    """Normalised distribution name -> version, from the `.dist-info` folder names of one site-packages."""
    out: dict[str, str] = {}
    try:
        entries = [e.name for e in os.scandir(site)]
    except OSError:
        return out
    for name in entries:
        for suffix in (".dist-info", ".egg-info"):
            if name.endswith(suffix) and "-" in name:
                dist, _, version = name[: -len(suffix)].partition("-")
                out.setdefault(re.sub(r"[-_.]+", "_", dist).lower(), version.split("-")[0])
    return out


def _dist_version(site: Path, top: str) -> str | None:
    version = _dist_versions(site).get(re.sub(r"[-_.]+", "_", top).lower())
    return f"{top} {version}" if version else None


def _import_root(top: str) -> Path | None:
    """The folder that holds the importable package `top`, found without importing it."""
    if not top.isidentifier():
        return None
    import importlib.util

    try:
        spec = importlib.util.find_spec(top)
    except (ImportError, ValueError, AttributeError):
        return None
    if spec is None:
        return None
    locations = list(spec.submodule_search_locations or [])
    if locations:
        return Path(locations[0]).parent
    return Path(spec.origin).parent if spec.origin and spec.origin not in ("built-in", "frozen") else None


def _python_installed(record: Record, rel: str, paths: LocalPaths) -> _Found | None:
    if record.repo == CPYTHON_REPO:
        tail = _python_tail(record, rel)
        if tail is None or paths.stdlib is None:
            return None
        file = paths.stdlib / tail
        return _Found(file, paths.python_version, None) if _is_file(file) else None
    tail = _python_tail(record, rel) or _header_tail(record, rel)
    if tail is None:
        return None
    top = tail.split("/")[0]
    root = _import_root(top)
    if root is None or not _is_file(root / tail):
        return None
    return _Found(root / tail, _dist_version(root, top), None)


# --- the message in the file -----------------------------------------------------------------------------------------


def _anchors(pattern: str) -> list[str]:
    """Runs of a few words from the message's literal text: what is left to find when its wording changed."""
    out: list[str] = []
    for part in split_pattern(pattern):
        if part is None:
            continue
        for piece in _ESCAPED.split(part):
            words = piece.split()
            for i in range(max(len(words) - _WORD_WINDOW + 1, 0)):
                window = " ".join(words[i : i + _WORD_WINDOW])
                if len(window) >= 10 and window not in out:
                    out.append(window)
    return out[:_MAX_ANCHORS]


@lru_cache(maxsize=256)
def _locate(path: str, stamp: tuple[int, int], pattern: str, hint: int) -> tuple[int | None, bool]:
    """(line, exact): where the message stands, nearest `hint`; `exact` False when only part of it was found."""
    lines = _read_lines_cached(path, stamp)
    if lines is None:
        return None, False
    text = "\n".join(lines)
    from leafexplain.verify import fragment_lines, search_fragment

    fragment = search_fragment(pattern)
    if fragment:
        hits = fragment_lines(text, fragment)
        if hits:
            return min(hits, key=lambda n: (abs(n - hint), n)), True
    anchors = _anchors(pattern)
    votes: Counter[int] = Counter()
    for anchor in anchors:
        votes.update(fragment_lines(text, anchor))
    if not votes:
        return None, False
    best = max(votes.values())
    if best < min(2, len(anchors)):
        return None, False  # one common phrase is no evidence
    return min((n for n, v in votes.items() if v == best), key=lambda n: (abs(n - hint), n)), False


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
    rel = _norm(record.filePath or "").lstrip("/")
    if not rel:
        return None
    frames = _event_frames(event)
    found = _from_frames(record, rel, frames, paths)
    if found is None:
        if record.repo == RUST_REPO:
            found = _rust_std(rel, frames, paths)
        elif rel.endswith(".rs"):
            found = _cargo_registry(record, rel, frames, paths)
        else:
            found = _python_installed(record, rel, paths)
    if found is None:
        return None
    stamp = _stamp(found.path)
    lines = _read_lines_cached(str(found.path), stamp) if stamp else None
    if lines is None:
        return None
    hint = found.hint or record.lineNumber or 0
    line, exact = _locate(str(found.path), stamp, record.messagePattern, hint)  # type: ignore[arg-type]
    drift, note = _drift_note(record, line, exact)
    if found.note:
        note = f"{note} {found.note}"
    start, window = _window(lines, line, context) if line else (1, ())
    url = found.url
    if url and found.url_exact and line:
        url += f"#L{line}"
    return LibrarySource(
        path=str(found.path),
        version=found.version,
        line=line,
        start=start,
        lines=window,
        drift=drift,
        note=note,
        language=language_of(found.path.name),
        url=url,
    )


def describe(source: LibrarySource) -> str:
    """`path:line · version`, for a heading."""
    where = source.path + (f":{source.line}" if source.line else "")
    return where + (f" · {source.version}" if source.version else "")
