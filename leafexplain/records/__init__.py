"""The records: found in their folders, validated against the schema, indexed for matching, searched.

The functions here are the package's public face; each imports its machinery when called, so that
importing one small piece (the pattern compiler, say) stays cheap.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping

from leafexplain.models import RecordSet

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: the everyday path does without it
if TYPE_CHECKING:
    from leafexplain.records.catalog import Catalog


def open_catalog(
    extra: Iterable[str] = (),
    *,
    bundled: bool = True,
    configured: bool = True,
    environ: Mapping[str, str] = os.environ,
    progress: Callable[[int, int], None] | None = None,
    warn: Callable[[str], None] = lambda message: None,
    use_cache: bool = True,
) -> Catalog:
    """The records of the bundled folder, the user's folder, LEAFEXPLAIN_RECORDS and `extra`, ready to
    match: from the index when it is current, else read and indexed (with `progress`), problems in
    `catalog.problems`, cache trouble told to `warn` once."""
    from leafexplain.records import index

    extra = tuple(extra)
    return index.load(
        extra,
        bundled=bundled,
        configured=configured,
        environ=environ,
        progress=progress,
        warn=warn,
        use_cache=use_cache,
    )


def load_records(
    extra: Iterable[str] = (),
    *,
    bundled: bool = True,
    configured: bool = True,
    environ: Mapping[str, str] = os.environ,
) -> RecordSet:
    """All records from all sources, read afresh (no index); a later id replaces an earlier one."""
    catalog = open_catalog(extra, bundled=bundled, configured=configured, environ=environ, use_cache=False)
    return RecordSet(records=tuple(catalog.all_records()), problems=catalog.problems, sources=catalog.sources)


def load_paths(paths: Iterable[str]) -> RecordSet:
    """Only the given files or folders (for `validate PATH`)."""
    return load_records(paths, bundled=False, configured=False)
