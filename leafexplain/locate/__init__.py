"""Code on this machine: the user's own lines around their frame, and the library's source as installed here.

A few stats and small reads, nothing slow, and never the network. `files` reads files and the user's
code, `library` finds a record's file (`rust` for toolchains and crates, `python` for the standard
library and packages), `message` says where the record's message stands in it, and `cached` reads
the lines `leafexplain update` keeps for records whose library is not installed here.

Every line read here is redacted as it comes in, as the input was (`redact.Redactor`): the user's own, a
library file's (which may be a file of the user's own folder, or one anyone could have written where a
library goes) and the source cache's (an entry is a file anyone could have written too). `rustc` says
what an error code no record explains means (`rustc`, run only when a view reads it). `raised` says, for every
event, where a library raised it (issue 25: docs/raised.md).
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from leafexplain.locate.files import LocalPaths
from leafexplain.models import CachedSnippet, CodeExplanation, Finding, Located, Record

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: the everyday path does without it
if TYPE_CHECKING:
    from typing import TypeVar

    from leafexplain.models import LibrarySource, Snippet
    from leafexplain.redact import Redactor

    _Lines = TypeVar("_Lines", Snippet, LibrarySource, CachedSnippet)

__all__ = ["LocalPaths", "find_sources"]


def find_sources(
    findings: Sequence[Finding], paths: LocalPaths, redactor: Redactor | None = None
) -> tuple[Located, ...]:
    """For each finding: its user frame's code, and each matched record's installed source; for a record
    with no installed source, its lines from the source cache, looked up when a view asks for them (the order
    of issue 17: the record's own, else installed, else cached; cached lines from a release stand in for a
    record's own from a commit that is not in the repository's history). With a `redactor`, every line is
    redacted as it is read, and counted there (the cache's when a view reads them)."""
    from leafexplain.locate.files import user_snippet
    from leafexplain.locate.library import forget_listings, library_source
    from leafexplain.locate.raised import RaisedLookup, raised_at

    forget_listings()  # toolchains and packages installed since the last explanation are seen
    found = []
    lookups: dict[str, CodeExplanation] = {}  # error code -> what rustc says of it, asked once
    for finding in findings:
        # A compile record's file is the error index's page, not a library's source.
        library = tuple(
            None if c.record.errorType == "compile" else library_source(c.record, finding.event, paths)
            for c in finding.matches
        )
        # A record with its own `sourceCode` is looked up too: its snippet may be from a commit that is not in the
        # repository's history (the seed's), and then the lines cached from a release take its place.
        wanted = tuple(c.record if s is None else None for c, s in zip(finding.matches, library, strict=True))
        cached = (
            _CacheLookups(wanted, paths.sources, redactor)
            if paths.sources is not None and any(wanted)
            else (None,) * len(wanted)
        )
        user = user_snippet(finding.event, paths)
        if redactor is not None:
            user = _redacted(user, redactor)
            library = tuple(_redacted(source, redactor) for source in library)
        code = finding.event.code
        explanation = None
        if code is not None and not finding.matches and finding.event.error_type == "compile":
            if code not in lookups:
                from leafexplain.locate.rustc import CodeLookup  # only for a compile error no record explains

                lookups[code] = CodeLookup(code, paths)  # type: ignore[assignment]
            explanation = lookups[code]
        # Where the library raised it, matched or not; for a matched one, when a view reads it (the default view
        # shows the record's explanation and reads no library file for it).
        event = finding.event
        raised = RaisedLookup(event, paths, redactor) if finding.matches else raised_at(event, paths, redactor)
        found.append(Located(user, library, cached, explanation, raised))  # type: ignore[arg-type]
    return tuple(found)


def _redacted(found: _Lines | None, redactor: Redactor) -> _Lines | None:
    """The snippet (the user's, a library's, the cache's) with each of its lines redacted."""
    if found is None or not found.lines:
        return found
    return found._replace(lines=tuple(map(redactor, found.lines)))


class _CacheLookups(Sequence["CachedSnippet | None"]):
    """`Located.cached`: each match's lines from the source cache, read when a view asks for that match's.

    The views that show a snippet (`--full`, the JSON document's `source_snippet`) ask for the match they
    show; the default view shows none and asks for nothing, so it reads no file and imports nothing.
    """

    __slots__ = ("_found", "_records", "_redactor", "_root")

    def __init__(self, records: tuple[Record | None, ...], root: str, redactor: Redactor | None = None) -> None:
        self._records, self._root, self._redactor = records, root, redactor
        self._found: dict[int, CachedSnippet | None] = {}

    def __len__(self) -> int:
        return len(self._records)

    def __getitem__(self, index: int) -> CachedSnippet | None:  # type: ignore[override]
        if isinstance(index, slice):
            return tuple(self[i] for i in range(len(self._records))[index])  # type: ignore[return-value]
        index = range(len(self._records))[index]  # IndexError as a tuple's
        if index not in self._found:
            found = _from_cache(self._records[index], self._root)
            self._found[index] = found if self._redactor is None else _redacted(found, self._redactor)
        return self._found[index]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sequence) and tuple(self) == tuple(other)

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return repr(tuple(self))


def _from_cache(record: Record | None, root: str) -> CachedSnippet | None:
    """A file read, only for a record with no installed source."""
    if record is None or not os.path.isdir(root):  # `update` never ran: nothing to import either
        return None
    from leafexplain.locate.cached import cached_snippet

    return cached_snippet(record, root)
