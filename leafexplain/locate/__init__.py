"""Code on this machine: the user's own lines around their frame, and the library's source as installed here.

A few stats and small reads, nothing slow. `files` reads files and the user's code, `library`
finds a record's file (`rust` for toolchains and crates, `python` for the standard library and
packages) and `message` says where the record's message stands in it.
"""

from __future__ import annotations

from collections.abc import Sequence

from leafexplain.locate.files import LocalPaths
from leafexplain.models import Finding, Located

__all__ = ["LocalPaths", "find_sources"]


def find_sources(findings: Sequence[Finding], paths: LocalPaths) -> tuple[Located, ...]:
    """For each finding: its user frame's code, and each matched record's installed source."""
    from leafexplain.locate.files import user_snippet
    from leafexplain.locate.library import forget_listings, library_source

    forget_listings()  # toolchains and packages installed since the last explanation are seen
    return tuple(
        Located(user_snippet(f.event, paths), tuple(library_source(c.record, f.event, paths) for c in f.matches))
        for f in findings
    )
