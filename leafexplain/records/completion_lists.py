"""The plain lists shell completion reads (ids, slugs, repositories, tags), so that a TAB needs no Python."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from leafexplain.env import cache_dir
from leafexplain.records.catalog import Catalog
from leafexplain.records.schema import REPO_RE, TOKEN_RE

KINDS = ("ids", "slugs", "repos", "tags")


def completion_list(kind: str, environ: Mapping[str, str]) -> Path:
    """`ids`, `slugs`, `repos` or `tags`: one value a line."""
    return Path(cache_dir(environ)) / "complete" / f"{kind}.txt"


def completion_values(catalog: Catalog, kind: str) -> set[str]:
    """The values a shell may offer: only tokens (validation lets no other kind in; a list is read one value a
    line, so one with a newline or a shell metacharacter in it must never be written there)."""
    if kind == "tags":
        values = {tag for tags in catalog.tags for tag in tags}
    else:
        values = set({"ids": catalog.ids, "slugs": catalog.slugs, "repos": catalog.repos}[kind])
    shape = REPO_RE if kind == "repos" else TOKEN_RE
    return {value for value in values if shape.match(value)}


def write_completion_lists(catalog: Catalog, environ: Mapping[str, str]) -> None:
    """Written whenever the index of the default records is rebuilt; each list replaced atomically."""
    import tempfile  # only when writing: it imports random, shutil and more

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
