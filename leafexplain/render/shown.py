"""What an output shows that leafexplain built itself (this machine's paths), redacted in one step per report.

The input, and the lines read from this machine, were redacted as they came in (intake, locate). What an
output adds of its own comes from this machine: the workspace or the current folder (SARIF's base), the
file the input was read from (`--file`), the paths of your code and of the libraries found here (and their
notes), a frame's path made relative to the workspace or absolute. Each passes here: a Shown is built once
per report written, and every format takes such a text from it, never from the environment. One Redactor
redacts each distinct text once and counts each secret once, however many of those texts hold it (one
folder is the workspace, the current folder and the start of every path); its counts join the report's
`redacted`, so that the JSON and SARIF counts say all that was replaced. A report written with redaction
off (`--no-redact`: `redacted` None) shows them as they came.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from leafexplain.env import Environment
from leafexplain.models import Located, Report
from leafexplain.render.workspace import Place, error_place, relative_path, workspace

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: the default view is everyday start-up
if TYPE_CHECKING:
    from leafexplain.redact import Redactor

# What a found snippet holds that is not one of its lines (those were redacted as they were read); `Raised`'s
# own besides (its command names the file's path in the repository, its note the installed path).
_LOCAL_TEXTS = ("path", "note", "version", "url", "url_note", "new_command", "issues_url", "docs_url")


class Shown:
    """One report as its output shows it. `report`: the report with the paths and notes of what was found on
    this machine redacted, and `redacted` counting those too; `root`: the workspace as found (paths are made
    relative to it before they are shown); `base`, `input_name`: the workspace and `--file` as shown."""

    __slots__ = ("_done", "_found", "_redactor", "base", "input_name", "report", "root")

    def __init__(self, report: Report, environ: Mapping[str, str], input_name: str | None = None) -> None:
        self._redactor: Redactor | None = None
        self._done: dict[str, str] = {}
        if report.redacted is not None:
            from leafexplain.redact import RedactedSoFar, Redactor

            self._redactor = Redactor(distinct=True)
            report = report._replace(redacted=RedactedSoFar(report.redacted, self._redactor))
        self._found = report.located  # as found: where an error stands is worked out from the real paths
        if report.located is not None and self._redactor is not None:
            report = report._replace(located=tuple(map(self._located, report.located)))
        self.report = report
        self.root = workspace(environ)
        self.base = self.text(self.root)
        self.input_name = self.text(input_name) if input_name is not None else None

    def text(self, built: str) -> str:
        """The one step: a text leafexplain built, redacted (each distinct text once)."""
        if self._redactor is None or not built:
            return built
        done = self._done.get(built)
        if done is None:
            done = self._done[built] = self._redactor(built)
        return done

    def relative(self, file: str) -> str | None:
        """`file` relative to the workspace, as shown; None when it lies outside. A frame's path was redacted
        with the input: when the workspace holds a secret too, the path is compared with the workspace as shown."""
        inside = relative_path(file, self.root)
        if inside is None and self.base != self.root:
            inside = relative_path(file, self.base)
        return None if inside is None else self.text(inside)

    def absolute(self, file: str) -> str | None:
        """A relative path as the command that printed it meant it, from the current folder, as shown (None:
        there is no current folder)."""
        try:
            return self.text(os.path.abspath(file))
        except OSError:
            return None

    def place(self, index: int) -> Place | None:
        """Where the report's finding `index` stands in the workspace, its path as shown."""
        finding = self.report.findings[index]
        found = self._found[index] if self._found is not None else None
        place = error_place(finding.event, found, self.root)
        if place is None:
            return None
        if place.path is None:
            inside = self.relative(place.frame.file)
            return place if inside is None else place._replace(path=inside)
        return place._replace(path=self.text(place.path))

    def _located(self, found: Located) -> Located:
        """What was found for one finding, each path and note redacted (the lines were, when they were read)."""
        user = found.user and found.user._replace(**self._texts(found.user))
        library = tuple(source and source._replace(**self._texts(source)) for source in found.library)
        raised = found.raised
        later = getattr(raised, "then", None)  # a matched finding's lookup, read when a view asks: redacted then
        if callable(later):
            raised = later(lambda read: read._replace(**self._texts(read)))
        elif raised is not None:
            raised = raised._replace(**self._texts(raised))
        return found._replace(user=user, library=library, raised=raised)

    def _texts(self, snippet: object) -> dict[str, str]:
        texts = ((name, getattr(snippet, name, None)) for name in _LOCAL_TEXTS)
        return {name: self.text(value) for name, value in texts if isinstance(value, str)}


def shown_workspace(env: Environment) -> str:
    """The workspace as an output without a report shows it (`show`, `list`, `search` in SARIF): redacted
    unless the environment says not."""
    root = workspace(env.environ)
    if not env.redact:
        return root
    from leafexplain.redact import redact

    return redact(root)
