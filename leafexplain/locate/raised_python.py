"""Where a Python event was raised in a library: the innermost frame in site-packages, dist-packages or the
standard library, read from disk when the file is a library's in fact (locate/raised.py's trust model).

A file in a site-packages folder is a library's when an installed distribution's `*.dist-info/RECORD` there
lists it (the distribution then gives the name, `METADATA`'s version and Project-URLs); a file of a standard
library is one below a `lib/pythonX.Y/` folder that holds `os.py` (this interpreter's, or another installed
Python's), outside its site-packages. Anything else named by a frame is never opened: what the path itself
says (`site-packages/<pkg>/`) still names the library, with no version and no lines.

The function and its docstring are read from the file's text around the raising line (no `ast`, no import of
the library): the nearest `def` above it indented less, and the string that opens that function's body.
"""

from __future__ import annotations

import os
from functools import lru_cache

from leafexplain.libraries import (
    CPYTHON_REPO,
    DISTRIBUTION_OF,
    is_library_frame,
    issues_search,
    new_command,
    norm_path,
    normalised_name,
    repo_of,
    source_link,
)
from leafexplain.locate.files import LocalPaths, language_of, plain_path, read_lines, same_code, window
from leafexplain.models import ErrorEvent, Frame, Raised
from leafexplain.named import NamedTuple
from leafexplain.safeio import inside, open_regular, read_regular, realpath

RAISED_CONTEXT = 4  # lines either side of the raising line
CONDITION_REACH = 12  # lines above the raising line where its guarding `if`/`assert` is looked for
DEF_REACH = 400  # lines above the raising line where its function's `def` is looked for
MAX_METADATA_BYTES = 1_000_000
MAX_RECORD_BYTES = 8_000_000  # torch's RECORD is 1.4 MB
RECORD_BLOCK = 1 << 17
DOCSTRING_CHARS = 600
SOURCE_SUFFIXES = (".py", ".pyw")
# Read with string tests, not regexes: compiling the handful this takes cost more than all the rest of a lookup.
_GUARDS = ("if", "elif", "while", "assert")


class _Dist(NamedTuple):
    """One installed distribution: its name, version and Project-URLs, from its METADATA."""

    name: str
    version: str | None
    urls: tuple[tuple[str, str], ...]


def python_raised(event: ErrorEvent, paths: LocalPaths) -> Raised | None:
    """The library, version, raising lines and links of a Python event; None when no frame is a library's."""
    frame = _raising_frame(event)
    if frame is None:
        return None
    file = norm_path(frame.file)
    cut = max(file.rfind("/site-packages/"), file.rfind("/dist-packages/"))
    if cut >= 0:  # before the stdlib: `lib/python3.11/site-packages/` is in both
        folder = file[: cut + len("/site-packages")]
        return _from_site(event, frame, folder, file[len(folder) + 1 :])
    stdlib = _stdlib_parts(file)
    return None if stdlib is None else _from_stdlib(event, frame, *stdlib, paths)


def _stdlib_parts(file: str) -> tuple[str, str | None, str] | None:
    """(the standard library's folder, its `X.Y` when the path says it, the file below it) of a path in
    `lib/pythonX.Y/` (or `lib64/`, or a free-threaded `pythonX.Yt/`) or Windows' `Lib/`."""
    for marker in ("/lib/python", "/lib64/python"):
        at = file.rfind(marker)
        if at >= 0:
            end = file.find("/", at + len(marker))
            minor = file[at + len(marker) : end].removesuffix("t") if end > 0 else ""
            if end > 0 and minor.replace(".", "").isdecimal() and minor[:1].isdecimal():
                return file[:end], minor, file[end + 1 :]
    at = file.rfind("/Lib/")
    return (file[: at + 4], None, file[at + 5 :]) if at >= 0 else None


def _raising_frame(event: ErrorEvent) -> Frame | None:
    """The innermost frame, when it is a library's (a frame of your own raised it else); frames that name no
    file (`<frozen importlib._bootstrap>`) are passed over to the library frame that called them."""
    frames = list(event.frames) or ([event.location] if event.location else [])
    for frame in reversed(frames):
        if not is_library_frame(frame, "python"):
            return None
        if plain_path(frame.file):
            return frame
    return None


def forget_listings() -> None:
    """Installed distributions are listed afresh by the next lookup."""
    _dist_folders.cache_clear()
    _distribution.cache_clear()
    _lists.cache_clear()
    _is_stdlib.cache_clear()


@lru_cache(maxsize=16)
def _dist_folders(site: str) -> tuple[str, ...]:
    """The `*.dist-info` folders of one site-packages folder (resolved)."""
    try:
        return tuple(sorted(e.name for e in os.scandir(site) if e.name.endswith(".dist-info")))
    except OSError:
        return ()


@lru_cache(maxsize=16)
def _distribution(folder: str) -> _Dist:
    """A dist-info folder's distribution; its folder's name says what METADATA does not."""
    headers = _metadata(os.path.join(folder, "METADATA"))
    dist_name, _, dir_version = os.path.basename(folder)[: -len(".dist-info")].partition("-")
    name = headers.get("name", [dist_name])[0]
    version = headers.get("version", [dir_version])[0] or None
    return _Dist(name, version, tuple(_project_urls(headers)))


def _metadata(path: str) -> dict[str, list[str]]:
    """A METADATA file's headers (lower-case names), up to the blank line before its long description."""
    try:
        data = read_regular(path, MAX_METADATA_BYTES, follow=False)
    except (OSError, ValueError):
        return {}
    headers: dict[str, list[str]] = {}
    head = data.replace(b"\r\n", b"\n").split(b"\n\n", 1)[0]  # torch's long description is 40 kB: not decoded
    for line in head.decode("utf-8", errors="replace").split("\n"):
        if not line.strip():
            break
        name, colon, value = line.partition(":")
        if colon and not line[0].isspace():
            headers.setdefault(name.strip().lower(), []).append(value.strip())
    return headers


def _project_urls(headers: dict[str, list[str]]) -> list[tuple[str, str]]:
    urls = []
    for entry in headers.get("project-url", []):
        label, _, url = entry.partition(",")
        urls.append((label.strip(), url.strip()))
    urls += [("home-page", url) for url in headers.get("home-page", [])]
    return urls


@lru_cache(maxsize=64)
def _lists(folder: str, tail: str) -> bool:
    """The dist-info folder's RECORD lists `tail`: read a block at a time up to the line that does (torch's
    RECORD is 1.4 MB; its files are found a tenth of the way in, on average half), never past MAX_RECORD_BYTES."""
    listed = b"\n" + tail.encode("utf-8", errors="replace") + b","
    try:
        with open_regular(os.path.join(folder, "RECORD"), max_bytes=MAX_RECORD_BYTES, follow=False) as handle:
            kept = b"\n"
            while block := handle.read(RECORD_BLOCK):
                kept += block
                if listed in kept:
                    return True
                kept = kept[-len(listed) :]  # a line cut between two blocks
    except (OSError, ValueError):
        return False
    return False


def _owner(site: str, tail: str) -> _Dist | None:
    """The distribution whose RECORD lists `tail` (a path below `site`): the one named like its top folder (or
    known to install it: `sklearn/` is scikit-learn's) is asked first, then the others, the smallest RECORD
    first (pip's and numpy's are large, and seldom the one)."""
    top = tail.split("/", 1)[0].removesuffix(".py")
    names = {normalised_name(top) + "-", DISTRIBUTION_OF.get(top, "\0") + "-"}
    folders = _dist_folders(site)
    first = [name for name in folders if any(name.lower().startswith(prefix) for prefix in names)]
    rest = sorted((name for name in folders if name not in first), key=lambda name: _record_size(site, name))
    for name in first + rest:
        folder = os.path.join(site, name)
        if _lists(folder, tail):
            return _distribution(folder)
    return None


def _record_size(site: str, name: str) -> int:
    try:
        return os.stat(os.path.join(site, name, "RECORD")).st_size
    except OSError:
        return 0


def _from_site(event: ErrorEvent, frame: Frame, site_text: str, tail: str) -> Raised | None:
    """A site-packages frame: read when its distribution's RECORD lists the file, else named from its path."""
    tail = tail.replace("\\", "/")
    parts = tail.split("/")
    if ".." in parts or "." in parts or "" in parts:
        return None  # a path that leads out of the folder, or names nothing: no library is said to be there
    package = parts[0][:-3] if parts[0].endswith(".py") else parts[0]
    named = Raised(library=package, function=frame.function, language="python")
    if not tail.endswith(SOURCE_SUFFIXES) or not os.path.isdir(site_text):
        return _linked(named, event, None, None, tail)
    site = realpath(site_text)
    dist = _owner(site, tail)
    if dist is None:
        return _linked(named, event, None, None, tail)  # a file no distribution installed: never read
    named = named._replace(library=dist.name, version=dist.version)
    real = realpath(os.path.join(site, *parts))
    if real != os.path.join(site, *parts) or not inside(real, site):
        return _linked(named, event, dist, None, tail)  # a symlink on the way: not the listed file
    return _linked(_read(named, frame, os.path.join(site_text, *parts), real), event, dist, None, tail)


def _from_stdlib(
    event: ErrorEvent, frame: Frame, lib_text: str, minor: str | None, tail: str, paths: LocalPaths
) -> Raised | None:
    """A standard library frame: read when the folder is an installed Python's standard library."""
    tail = tail.replace("\\", "/")
    parts = tail.split("/")
    if ".." in parts or "." in parts or "" in parts:
        return None
    here = paths.stdlib is not None and realpath(lib_text) == realpath(paths.stdlib)
    version = paths.python_version.removeprefix("Python ") if here else minor
    named = Raised(library="Python", version=version, function=frame.function, language="python")
    if not tail.endswith(SOURCE_SUFFIXES) or not _is_stdlib(lib_text):
        return _linked(named, event, None, "python", tail)
    lib = realpath(lib_text)
    real = realpath(os.path.join(lib, *parts))
    if real != os.path.join(lib, *parts) or not inside(real, lib):
        return _linked(named, event, None, "python", tail)
    return _linked(_read(named, frame, os.path.join(lib_text, *parts), real), event, None, "python", tail)


@lru_cache(maxsize=8)
def _is_stdlib(folder: str) -> bool:
    """An installed Python's standard library: the folder holds `os.py`, as every one does (`os.__file__`)."""
    return os.path.isdir(folder) and os.path.isfile(os.path.join(folder, "os.py"))


def _read(found: Raised, frame: Frame, shown: str, real: str) -> Raised:
    """The raising line and the lines around it, its condition, function and docstring, from the file at `real`;
    `changed` when the file no longer holds the code the run's frame printed."""
    found = found._replace(path=shown, line=frame.line, language=language_of(shown))
    lines = read_lines(real)
    if lines is None or not frame.line or frame.line > len(lines):
        return found._replace(path=None) if lines is None else found._replace(changed=bool(frame.line))
    code = (frame.code or "").strip()
    if code and not same_code(lines[frame.line - 1], code):
        return found._replace(changed=True)
    start, shown_lines = window(lines, frame.line, RAISED_CONTEXT)
    function, docstring = python_function(lines, frame.line)
    return found._replace(
        start=start,
        lines=shown_lines,
        condition=_condition(lines, frame.line, start),
        function=frame.function if frame.function and frame.function != "<module>" else function,
        docstring=docstring,
    )


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _condition(lines: tuple[str, ...], line: int, start: int) -> str | None:
    """The test guarding the raising line, when it is among the lines shown: the raising line's own `assert`,
    else the nearest line above it indented less, when that is an `if`, `elif`, `while` or `assert`."""
    raising = lines[line - 1]
    if raising.strip().startswith("assert"):
        return raising.strip()
    depth = _indent(raising)
    for number in range(line - 1, max(start, line - CONDITION_REACH) - 1, -1):
        text = lines[number - 1]
        if not text.strip() or text.lstrip().startswith("#") or _indent(text) >= depth:
            continue
        return _header(text.strip())
    return None


def _header(stripped: str) -> str | None:
    """An `if`/`elif`/`while`/`assert` line's test, without its colon and any comment after it."""
    keyword = stripped.split(None, 1)[0].split("(", 1)[0] if stripped else ""
    if keyword not in _GUARDS:
        return None
    if "#" in stripped and stripped[: stripped.rfind("#")].rstrip().endswith(":"):
        stripped = stripped[: stripped.rfind("#")].rstrip()
    return stripped.removesuffix(":").rstrip()


def _def_name(text: str) -> str | None:
    """The name a `def` (or `async def`) line defines."""
    words = text.split(None, 2)
    if words[:1] == ["async"]:
        words = words[1:2] + (words[2].split(None, 1) if len(words) > 2 else [])
    if len(words) < 2 or words[0] != "def":
        return None
    name = words[1].split("(", 1)[0].split("[", 1)[0]
    return name if name.isidentifier() else None


def python_function(lines: tuple[str, ...], line: int) -> tuple[str | None, str | None]:
    """The name of the function around `line` and its docstring's first paragraph, read from the text."""
    depth = _indent(lines[line - 1])
    for number in range(line - 1, max(line - DEF_REACH, 1) - 1, -1):
        text = lines[number - 1]
        if not text.strip() or _indent(text) >= depth:
            continue
        name = _def_name(text)
        if name is None:
            if not text.lstrip().startswith(("@", "#", ")", "]")) and _indent(text) < depth:
                depth = _indent(text)  # a block inside the function: its `def` is further out still
            continue
        return name, _docstring(lines, number)
    return None, None


def _docstring(lines: tuple[str, ...], def_line: int) -> str | None:
    """The first paragraph of the string that opens the body of the `def` at `def_line`."""
    body = def_line
    while body <= len(lines) and not lines[body - 1].split("#", 1)[0].rstrip().endswith(":"):
        body += 1  # a signature over several lines
    for number in range(body + 1, min(body + 3, len(lines)) + 1):
        text = lines[number - 1].strip()
        if not text:
            continue
        opening = text.lstrip("rRuU")
        quote = opening[:3] if opening[:3] in ('"""', "'''") else None
        if quote is None:
            return None
        paragraph: list[str] = []
        rest = opening[3:]
        for more in [rest, *lines[number : number + 80]]:
            piece = more.strip()
            ends = quote in piece
            piece = piece.split(quote, 1)[0].strip()
            if not piece and paragraph:
                break
            if piece:
                paragraph.append(piece)
            if ends:
                break
        said = " ".join(paragraph)
        return (said[: DOCSTRING_CHARS - 1] + "…" if len(said) > DOCSTRING_CHARS else said) or None
    return None


def _linked(found: Raised, event: ErrorEvent, dist: _Dist | None, known: str | None, tail: str) -> Raised:
    """The links: the raising line at the installed version, the issues search, the `leafexplain new` command."""
    library = found.library or ""
    repo = CPYTHON_REPO if known == "python" else repo_of(library, dist.urls if dist else ())
    if repo is None:
        return found
    url = note = None
    if found.version and (known != "python" or found.version.count(".") >= 2):
        url, note = source_link(known or library, repo, found.version, tail, found.line if found.lines else None)
    elif found.version:
        url, note = f"https://github.com/{repo}/tree/{found.version}", f"Python {found.version}: no micro version"
    found = found._replace(url=url, url_note=note, issues_url=issues_search(repo, event.message))
    return found._replace(new_command=_new_command(repo, found, event, tail, known)) if found.lines else found


def _new_command(repo: str, found: Raised, event: ErrorEvent, tail: str, known: str | None) -> str:
    """`leafexplain new` with what was found: the path and the release as the link has them."""
    path = f"Lib/{tail}" if known == "python" else tail
    url = found.url or ""
    if "/blob/" in url:  # the repository's path, as the link has it
        path = url.split("/blob/", 1)[1].split("/", 1)[1].split("#", 1)[0]
    tag = url.split("/blob/", 1)[1].split("/", 1)[0] if "/blob/" in url else found.version or "RELEASE"
    return new_command(repo, tag, path, found.line, event.message, event.error_type)
