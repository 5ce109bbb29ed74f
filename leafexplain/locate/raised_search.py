"""A bare message (no frames) found in the installed source of the library the text names: its literal part
searched for, bounded in files and time.

The library is named by the text itself: a qualified class (`sklearn.exceptions.NotFittedError`: the top
package, `sklearn`) or a `site-packages/<pkg>/` path in the message. It is looked for in this interpreter's
site-packages, owned by a `*.dist-info` whose `RECORD` lists its files; only `.py` files that RECORD lists, inside
that site-packages once resolved, are read (opened following no symlink, bounded in size, not binary), at most
`MAX_FILES` of them and for at most `MAX_SECONDS`. Nothing is imported or run. The search runs only for a bare
message nothing else located; the module costs a few lazy regexes to import.

The message's literal part (`literal_runs`) is what a search of the library's issues asks for too
(`libraries.issues_search`); the test guarding a raise is read the same way in Rust and Python (`files.guard`).
"""

from __future__ import annotations

import os
import re
import sys
import time

from leafexplain.libraries import github_repo, issues_search
from leafexplain.locate.files import MAX_FILE_BYTES, MAX_LINE_CHARS, USER_CONTEXT, LocalPaths, guard, window
from leafexplain.locate.raised_python import python_function
from leafexplain.models import ErrorEvent, Raised
from leafexplain.regex import compiled, lazy_regex
from leafexplain.safeio import open_resolved, read_regular, realpath

MAX_FILES = 2_000  # .py files read per search at most
MAX_SECONDS = 0.5  # a search stops there, hit or not (time.monotonic)
MAX_RECORD_BYTES = 4_000_000  # torch's RECORD is about 2 MB
MAX_METADATA_BYTES = 200_000
MIN_RUN_WORDS = 2  # with MIN_RUN_CHARS: `Singular matrix`, not `not found`
MIN_RUN_CHARS = 12
# Quoted values ('x', "x") end a run of words; a backticked name is the message's own (`Result::unwrap()`)
# unless it holds a digit.
_QUOTED = lazy_regex(r"(?<![\w'\"])(['\"])[^\n]{0,200}?\1(?![\w])|`([^`\n]{0,200})`")
_WORD = lazy_regex(r"[A-Za-z][A-Za-z'_-]*[.,:;!?]?")
_NAMED_PATH = lazy_regex(r"[/\\](?:site|dist)-packages[/\\]([A-Za-z_][A-Za-z0-9_]*)[/\\]")
_TOP_NAME = lazy_regex(r"[A-Za-z_][A-Za-z0-9_]*")
_DEF = lazy_regex(r"\s*(?:async\s+)?def\s+([A-Za-z_][A-Za-z0-9_]*)")
_GUARD = ("if ", "elif ", "assert ", "while ")
_NOT_A_LIBRARY = {"builtins", "exceptions", "__main__"}
# Between the words of a literal split over lines and joined ("a " f"b"): quotes, a string's prefix, backslashes,
# line breaks (as locate/message.py's fragment_lines allows, and the prefixes of Python's strings).
_BETWEEN_WORDS = r"(?:[\s\"'\\]|\\n|(?<=\s)[fFrRbBuU]{1,2}(?=[\"']))+"
_TESTS = lazy_regex(r"(?:^|/)(?:tests?/|conftest\.py$|test_[^/]*\.py$|[^/]*_test\.py$)")


# --- the message's literal part ---------------------------------------------------------------------------------------


def literal_runs(message: str) -> list[list[str]]:
    """The runs of words in `message` between its values, in order: quoted strings, numbers, words with a digit
    or a symbol, and whatever brackets hold each end a run."""
    runs: list[list[str]] = [[]]
    at = 0
    for quoted in [*_QUOTED.finditer(message), None]:
        end = quoted.start() if quoted else len(message)
        _words_of(message[at:end], runs)
        if quoted is None:
            break
        name = quoted.group(2)
        if name is not None and not any(c.isdigit() for c in name) and name.strip():
            runs[-1].append(name.strip())
        elif runs[-1]:
            runs.append([])
        at = quoted.end()
    return [run for run in runs if run]


def _words_of(text: str, runs: list[list[str]]) -> None:
    depth = 0
    for token in text.split():
        opened = sum(token.count(c) for c in "([{") - sum(token.count(c) for c in ")]}")
        if depth == 0 and not opened and _WORD.fullmatch(token):
            runs[-1].append(token)
        elif runs[-1]:
            runs.append([])
        depth = max(depth + opened, 0)


def message_literals(message: str, most: int = 3) -> list[list[str]]:
    """The longest runs of the message's literal words (`literal_runs`), longest first, each long enough to find
    one place: what a search of the source looks for."""
    runs = [run for run in literal_runs(message) if len(run) >= MIN_RUN_WORDS and len(" ".join(run)) >= MIN_RUN_CHARS]
    return sorted(runs, key=lambda run: -len(" ".join(run)))[:most]


# --- the library the text names, installed here -----------------------------------------------------------------------


def named_packages(event: ErrorEvent) -> list[str]:
    """The top packages the event names: its qualified class's (`sklearn` of `sklearn.exceptions.NotFittedError`),
    then a `site-packages/<pkg>/` path's in the message, then the packages the text around it imports."""
    names: list[str] = []
    error_type = event.error_type or ""
    if "." in error_type:
        names.append(error_type.split(".", 1)[0])
    names += [m.group(1) for m in _NAMED_PATH.finditer(event.message)]
    names += event.imports  # then the packages the text around it imports
    return [n for n in dict.fromkeys(names) if _TOP_NAME.fullmatch(n) and n not in _NOT_A_LIBRARY]


def site_folders() -> list[str]:
    """This interpreter's site-packages (and dist-packages) folders, from its import path."""
    return [p for p in dict.fromkeys(sys.path) if os.path.basename(p) in ("site-packages", "dist-packages")]


def _normal(name: str) -> str:
    return name.replace("-", "_").replace(".", "_").lower()


def _dist_infos(site: str) -> list[str]:
    try:
        return sorted(e.name for e in os.scandir(site) if e.name.endswith(".dist-info"))
    except OSError:
        return []


def _small_file(path: str, limit: int) -> str | None:
    """A dist-info file's text: a regular file within `limit`, not through a symlink."""
    try:
        return read_regular(path, limit, follow=False).decode("utf-8", "replace")
    except (OSError, ValueError):
        return None


def _top_level(info: str) -> list[str]:
    return (_small_file(os.path.join(info, "top_level.txt"), 10_000) or "").split()


def _owner(site: str, top: str, deadline: float) -> tuple[str, list[str]] | None:
    """(the dist-info folder, the `.py` files of `top` its RECORD lists) of the distribution that owns `top`: the
    one named like it, then one whose top_level.txt names it, then any whose RECORD lists it (bounded in time)."""
    if not (os.path.isdir(os.path.join(site, top)) or os.path.isfile(os.path.join(site, top + ".py"))):
        return None  # not installed in this site-packages: no RECORD to read
    infos = _dist_infos(site)
    named = [i for i in infos if _normal(i.split("-", 1)[0]) == _normal(top)]
    listed = [i for i in infos if i not in named and top in _top_level(os.path.join(site, i))]
    for info in [*named, *listed, *(i for i in infos if i not in named and i not in listed)]:
        if time.monotonic() > deadline:
            return None
        record = _small_file(os.path.join(site, info, "RECORD"), MAX_RECORD_BYTES)
        if record is None or (top + "/" not in record and top + ".py," not in record):
            continue
        files = [row.split(",", 1)[0] for row in record.splitlines()]
        files = [f for f in files if _of_package(f, top)]
        if files:
            return info, files
    return None


def _of_package(file: str, top: str) -> bool:
    """A RECORD row's file is one of the package's `.py` files (or its one module), with no `..` out of the site."""
    return (file == top + ".py" or (file.startswith(top + "/") and file.endswith(".py"))) and ".." not in file.split(
        "/"
    )


def _distribution(site: str, info: str) -> tuple[str, str | None, str | None]:
    """(name, version, GitHub repository) from the dist-info's METADATA (its folder's name when unreadable)."""
    stem = info[: -len(".dist-info")]
    name, _, version = stem.partition("-")
    repo = None
    metadata = _small_file(os.path.join(site, info, "METADATA"), MAX_METADATA_BYTES) or ""
    for line in metadata.split("\n\n", 1)[0].splitlines():  # the headers, before the long description
        key, _, value = line.partition(":")
        value = value.strip()
        if key == "Name" and value:
            name = value
        elif key == "Version" and value:
            version = value
        elif key in ("Project-URL", "Home-page") and repo is None:
            repo = github_repo(value.rsplit(",", 1)[-1].strip())
    return name, version or None, repo


# --- the search -------------------------------------------------------------------------------------------------------


def searched_raised(
    event: ErrorEvent,
    paths: LocalPaths,
    *,
    sites: list[str] | None = None,
    max_files: int = MAX_FILES,
    max_seconds: float = MAX_SECONDS,
) -> Raised | None:
    """Where the library the event names raises its message; None when no library is named or nothing is found.
    `sites`: the site-packages folders to look in (default: this interpreter's)."""
    tops = named_packages(event)
    runs = message_literals(event.message) if tops else []
    if not runs:
        return None
    deadline = time.monotonic() + max_seconds
    budget = [max_files]
    for site in site_folders() if sites is None else sites:
        for top in tops:
            owner = _owner(site, top, deadline)
            if owner is None:
                continue
            hit = _search(site, owner[1], runs, deadline, budget)
            if hit is not None:
                return _raised(event, site, owner[0], hit)
    return None


def _search(
    site: str, files: list[str], runs: list[list[str]], deadline: float, budget: list[int]
) -> tuple[str, int, tuple[str, ...]] | None:
    """(the file, the hit's line, its lines) of the first RECORD-listed file holding the longest run of words in a
    string literal; else of the first holding a shorter one. A package's own tests are not where it raises."""
    wanted = [_finder(run) for run in runs]
    base = realpath(site)
    best: tuple[int, tuple[str, int, tuple[str, ...]]] | None = None
    for name in files:
        if budget[0] <= 0 or time.monotonic() > deadline:
            break
        if _TESTS.search(name):
            continue
        budget[0] -= 1
        file = os.path.join(site, *name.split("/"))
        # Opened below the resolved site-packages following no symlink (a file or folder linked out of it is
        # refused, never read): cheaper than resolving each of hundreds of paths first.
        data = _source(os.path.join(base, *name.split("/")))
        tried = [(rank, finder) for rank, (finder, key) in enumerate(wanted) if data and key in data]
        text = data.decode("utf-8", "replace") if data and tried else ""
        for rank, finder in tried:
            if best and rank >= best[0]:
                break
            line = _literal_line(text, finder)
            if line:
                best = (rank, (file, line, tuple(row.rstrip("\r")[:MAX_LINE_CHARS] for row in text.split("\n"))))
                break
        if best and best[0] == 0:
            break
    return best[1] if best else None


def _finder(run: list[str]) -> tuple[re.Pattern[str], bytes]:
    """The run's words as a regex that allows a literal split between them, and the one word a file must hold.

    The run's last word goes without its stop: a colon before a value (`at all: /x`) may be the caller's. One word
    is never split between literals: the longest, looked for in the file's bytes first, rules most files out
    before any is decoded."""
    words = [*run[:-1], run[-1].rstrip(".,:;!?")]
    return compiled(_BETWEEN_WORDS.join(map(re.escape, words))), max(words, key=len).strip(".,:;!?").encode()


def _source(path: str) -> bytes | None:
    """A `.py` file's bytes, opened following no symlink in any part of `path`, or None when it is missing, too big,
    not text, or a symlink is on the way."""
    try:
        with open_resolved(path, max_bytes=MAX_FILE_BYTES) as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except (OSError, ValueError):
        return None
    return None if len(data) > MAX_FILE_BYTES or b"\0" in data[:8192] else data


def _literal_line(text: str, finder: re.Pattern[str]) -> int | None:
    """The line where `finder` first matches inside a string literal: a quote before it on its line, not in a
    comment, nor in a triple-quoted string (a docstring's prose, and the messages its examples show)."""
    for found in finder.finditer(text):
        line_start = text.rfind("\n", 0, found.start()) + 1
        before = text[line_start : found.start()]
        if ('"' not in before and "'" not in before) or before.lstrip().startswith("#"):
            continue
        head = text[: found.start()]
        if head.count('"""') % 2 == 0 and head.count("'''") % 2 == 0:
            return text.count("\n", 0, found.start()) + 1
    return None


def _raised(event: ErrorEvent, site: str, info: str, hit: tuple[str, int, tuple[str, ...]]) -> Raised:
    file, line, lines = hit
    name, version, repo = _distribution(site, info)
    start, shown = window(lines, line, USER_CONTEXT)
    function, docstring = python_function(lines, line)
    return Raised(
        library=name,
        version=version,
        path=file,
        line=line,
        start=start,
        lines=shown,
        function=function,
        docstring=docstring,
        condition=guard(lines, line, start, _GUARD),
        issues_url=issues_search(repo, event.message),
        language="python",
    )


# --- reading Python source without importing it ----------------------------------------------------------------------


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())
