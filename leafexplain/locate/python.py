"""Python sources on this machine: the standard library of the running Python, and packages as importlib finds them."""

from __future__ import annotations

import os
from functools import lru_cache

from leafexplain.libraries import CPYTHON_REPO, PYTHON_LIB, header_tail, norm_path, python_tail
from leafexplain.locate.files import Found, LocalPaths, is_file
from leafexplain.models import Record
from leafexplain.regex import lazy_regex

_SEPARATORS = lazy_regex(r"[-_.]+")  # a distribution's name, normalised as in its dist-info folder's


@lru_cache(maxsize=16)
def _dist_versions(site: str) -> dict[str, str]:
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
                out.setdefault(_SEPARATORS.sub("_", dist).lower(), version.split("-")[0])
    return out


def forget_listings() -> None:
    """Installed packages are listed afresh by the next lookup."""
    _dist_versions.cache_clear()


def _dist_version(site: str, top: str) -> str | None:
    version = _dist_versions(site).get(_SEPARATORS.sub("_", top).lower())
    return f"{top} {version}" if version else None


def _import_root(top: str) -> str | None:
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
        return os.path.dirname(locations[0])
    return os.path.dirname(spec.origin) if spec.origin and spec.origin not in ("built-in", "frozen") else None


def python_installed(record: Record, rel: str, paths: LocalPaths) -> Found | None:
    if record.repo == CPYTHON_REPO:
        tail = python_tail(record, rel)
        if tail is None or paths.stdlib is None:
            return None
        file = os.path.join(paths.stdlib, tail)
        return Found(file, paths.python_version, None) if is_file(file) else None
    tail = python_tail(record, rel) or header_tail(record, rel)
    if tail is None:
        return None
    top = tail.split("/")[0]
    root = _import_root(top)
    if root is None or not is_file(os.path.join(root, tail)):
        return None
    return Found(os.path.join(root, tail), _dist_version(root, top), None)


def python_version_of(path: str, paths: LocalPaths, top: str) -> str | None:
    text = norm_path(path)
    if paths.stdlib and text.startswith(norm_path(os.fspath(paths.stdlib)) + "/") and "/site-packages/" not in text:
        return paths.python_version
    if "-packages/" in text:
        site = text[: text.rindex("-packages/") + len("-packages")]
        return _dist_version(site, top)
    lib = PYTHON_LIB.search(text)
    return f"Python {lib.group(1)}" if lib and lib.group(1) else None
