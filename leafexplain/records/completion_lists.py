"""The plain lists shell completion reads (ids, slugs, repositories, tags), so that a TAB needs no Python."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Mapping
from pathlib import Path

from leafexplain.env import cache_dir
from leafexplain.records.catalog import Catalog

KINDS = ("ids", "slugs", "repos", "tags")


def completion_list(kind: str, environ: Mapping[str, str]) -> Path:
    """`ids`, `slugs`, `repos` or `tags`: one value a line."""
    return cache_dir(environ) / "complete" / f"{kind}.txt"


def completion_values(catalog: Catalog, kind: str) -> set[str]:
    if kind == "tags":
        return {tag for tags in catalog.tags for tag in tags}
    return set({"ids": catalog.ids, "slugs": catalog.slugs, "repos": catalog.repos}[kind])


def write_completion_lists(catalog: Catalog, environ: Mapping[str, str]) -> None:
    """Written whenever the index of the default records is rebuilt; each list replaced atomically."""
    for kind in KINDS:
        target = completion_list(kind, environ)
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{kind}-")
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write("".join(f"{v}\n" for v in sorted(completion_values(catalog, kind))))
            os.replace(tmp, target)
        except OSError:
            return  # completion falls back to asking leafexplain
