"""Code on this machine: the user's own lines around their frame, and the library's source as installed here.

A few stats and small reads, nothing slow, and never the network. `files` reads files and the user's
code, `library` finds a record's file (`rust` for toolchains and crates, `python` for the standard
library and packages), `message` says where the record's message stands in it, and `cached` reads
the lines `leafexplain update` keeps for records whose library is not installed here.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from leafexplain.locate.files import LocalPaths
from leafexplain.models import CachedSnippet, Finding, Located, Record

__all__ = ["LocalPaths", "find_sources"]


def find_sources(findings: Sequence[Finding], paths: LocalPaths) -> tuple[Located, ...]:
    """For each finding: its user frame's code, and each matched record's installed source; for a record
    with neither its own `sourceCode` nor an installed source, its lines from the source cache."""
    from leafexplain.locate.files import user_snippet
    from leafexplain.locate.library import forget_listings, library_source

    forget_listings()  # toolchains and packages installed since the last explanation are seen
    found = []
    for finding in findings:
        library = tuple(library_source(c.record, finding.event, paths) for c in finding.matches)
        cached = tuple(
            _from_cache(c.record, paths) if s is None else None for c, s in zip(finding.matches, library, strict=True)
        )
        found.append(Located(user_snippet(finding.event, paths), library, cached))
    return tuple(found)


def _from_cache(record: Record, paths: LocalPaths) -> CachedSnippet | None:
    """A file read, only for a record with no installed source: its own snippet may be from a commit
    that is not in the repository's history (the seed's), and then the cached lines from a release take its place."""
    if paths.sources is None or not os.path.isdir(paths.sources):  # `update` never ran: nothing to import either
        return None
    from leafexplain.locate.cached import cached_snippet

    return cached_snippet(record, paths.sources)
