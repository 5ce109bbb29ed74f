"""Where an event was raised in a library's code, for every event, matched or not: which library, which
version, the raising lines read from this machine, and the links (issue 25).

The trust model of "your code" extends to library files: a path from pasted text is read only when it is a
library's file in fact (listed in an installed distribution's `RECORD`, inside an interpreter's standard
library, or inside a crate's folder that holds its `Cargo.toml`); anything else is never opened. Nothing here
imports the user's libraries or goes online.

The languages' own lookups: `raised_python` (site-packages, dist-packages, the stdlib), `raised_rust` (cargo's
registry and git checkouts, the toolchain's rust-src), and `raised_search` (a bare message's literal words
searched for in the installed source of the library the text names).
"""

from __future__ import annotations

from leafexplain.locate.files import LocalPaths
from leafexplain.models import ErrorEvent, Raised

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing
if TYPE_CHECKING:
    from collections.abc import Callable

    from leafexplain.redact import Redactor


def raised_at(event: ErrorEvent, paths: LocalPaths, redactor: Redactor | None = None) -> Raised | None:
    """Where `event` was raised in a library's code; None when nothing of it can be known."""
    if event.language == "python":
        from leafexplain.locate.raised_python import python_raised

        found = python_raised(event, paths)
    elif event.language == "rust":
        from leafexplain.locate.raised_rust import rust_raised

        found = rust_raised(event, paths)
    else:
        found = None
    # A message with no place at all (no frames, no location), as a Python package may raise it: searched for in
    # the installed source of the library it names. A Rust panic says where it was raised.
    if found is None and not event.frames and event.location is None and event.language != "rust":
        from leafexplain.locate.raised_search import searched_raised

        found = searched_raised(event, paths)
    if found is not None and redactor is not None:  # what was read from the file, as the user's lines are
        found = found._replace(
            lines=tuple(map(redactor, found.lines)),
            docstring=found.docstring and redactor(found.docstring),
            condition=found.condition and redactor(found.condition),
        )
    return found


_UNSET = object()


class RaisedLookup:
    """`Located.raised` of a finding a record explains (read as a models.Raised, and as None where it is falsy):
    looked up when first read. The default view shows the record's explanation and never reads it, so that a
    matched event's everyday run reads no library file; JSON reads it. `then` gives a lookup whose result passes
    through a function (render/shown.py's redaction of its paths) when it is read."""

    __slots__ = ("_event", "_found", "_paths", "_redactor", "_then")

    def __init__(
        self,
        event: ErrorEvent,
        paths: LocalPaths,
        redactor: Redactor | None = None,
        then: Callable[[Raised], Raised] | None = None,
    ) -> None:
        self._event, self._paths, self._redactor, self._then = event, paths, redactor, then
        self._found: object = _UNSET

    def resolved(self) -> Raised | None:
        if self._found is _UNSET:
            found = raised_at(self._event, self._paths, self._redactor)
            self._found = found if found is None or self._then is None else self._then(found)
        return self._found  # type: ignore[return-value]

    def then(self, function: Callable[[Raised], Raised]) -> RaisedLookup:
        before = self._then
        composed = function if before is None else (lambda raised: function(before(raised)))
        return RaisedLookup(self._event, self._paths, self._redactor, composed)

    def __bool__(self) -> bool:
        return self.resolved() is not None

    def __getattr__(self, name: str) -> object:
        found = self.resolved()
        if found is None:
            raise AttributeError(name)
        return getattr(found, name)

    def __eq__(self, other: object) -> bool:
        resolve = getattr(other, "resolved", None)
        return self.resolved() == (resolve() if callable(resolve) else other)

    def __hash__(self) -> int:
        return hash(self.resolved())

    def __repr__(self) -> str:
        return f"RaisedLookup({self.resolved()!r})"
