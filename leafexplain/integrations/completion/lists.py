"""Record ids, slugs, repositories and tags for completion: printed when a TAB asks, kept as plain lists for the next.

`leafexplain __complete KIND` answers from the record index and writes all four lists into the
cache, where the scripts read them without starting Python. Nothing else writes them: opening the
records does not. A list is used while it is newer than the record index's folder (an index is
rebuilt when the records change); a TAB that finds one missing or older asks again.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping

from leafexplain.env import Environment, cache_dir
from leafexplain.integrations.completion.tree import KINDS
from leafexplain.records.schema import REPO_RE, TOKEN_RE

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing
if TYPE_CHECKING:
    from leafexplain.records.catalog import Catalog

__all__ = ["KINDS", "answer", "completion_values", "write_completion_lists"]


def completion_list(kind: str, environ: Mapping[str, str]) -> str:
    """`ids`, `slugs`, `repos` or `tags`: one value a line."""
    return os.path.join(cache_dir(environ), "complete", f"{kind}.txt")


def completion_values(catalog: Catalog, kind: str) -> set[str]:
    """The values a shell may offer: only tokens (validation lets no other kind in; a list is read one value a
    line, so one with a newline or a shell metacharacter in it must never be written there)."""
    if kind == "tags":
        values = {tag for tags in catalog.tags for tag in tags}
    else:
        values = set({"ids": catalog.ids, "slugs": catalog.slugs, "repos": catalog.repos}[kind])
    shape = REPO_RE if kind == "repos" else TOKEN_RE
    return {value for value in values if shape.match(value)}


def _lines(values: Iterable[str]) -> str:
    return "".join(f"{v}\n" for v in sorted(values))


def write_completion_lists(catalog: Catalog, environ: Mapping[str, str]) -> None:
    """Each list replaced atomically; a cache that cannot be written leaves the scripts asking leafexplain."""
    import tempfile  # only when writing: it imports random, shutil and more

    for kind in KINDS:
        target = completion_list(kind, environ)
        try:
            os.makedirs(os.path.dirname(target), exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=os.path.dirname(target), prefix=f".{kind}-")
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(_lines(completion_values(catalog, kind)))
            os.replace(tmp, target)
        except OSError:
            return


def answer(kind: str, extra: Iterable[str], *, bundled: bool, env: Environment) -> None:
    """Print the values of `kind`; for the default records (what the scripts' lists hold), write the lists too."""
    from leafexplain.records import open_catalog
    from leafexplain.render import emit

    extra = tuple(extra)
    catalog = open_catalog(extra, bundled=bundled, environ=env.environ)
    emit(env, _lines(completion_values(catalog, kind)))
    if not extra and bundled:
        write_completion_lists(catalog, env.environ)
