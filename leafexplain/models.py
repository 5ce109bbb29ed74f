"""Frozen dataclasses passed between the pipeline stages: records, events, matches.

Not `slots=True`: building slotted dataclasses costs three times as long at import, and every
run of the command pays for it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

Language = Literal["rust", "python", "unknown"]


@dataclass(frozen=True)
class Record:
    """One error record (schemaVersion 2), as validated from a record file."""

    id: str
    repo: str
    slug: str
    errorMessage: str
    messagePattern: str
    errorType: str | None = None
    errorClass: str | None = None
    errorCode: str | None = None
    httpStatus: int | None = None
    severity: str | None = None
    filePath: str | None = None
    lineNumber: int | None = None
    sourceCode: str | None = None
    sourceCodeStart: int | None = None
    sourceCodeEnd: int | None = None
    githubUrl: str | None = None
    documentation: str | None = None
    triggerScenarios: str | None = None
    commonSituations: str | None = None
    solutions: tuple[str, ...] = ()
    exampleFix: str | None = None
    handlingStrategy: str | None = None
    validationCode: str | None = None
    typeGuard: str | None = None
    tryCatchPattern: str | None = None
    preventionTips: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    backgroundTag: str | None = None
    analyzedSha: str | None = None
    analyzedAt: str | None = None
    contentChangedAt: str | None = None
    schemaVersion: int = 2
    datasetVersion: str | None = None
    origin: str = ""  # file (and line) the record was loaded from

    @property
    def language(self) -> Language:
        """Rust for panics; Python for exceptions and warnings."""
        if (self.errorType or "").lower() == "panic":
            return "rust"
        if self.errorType or self.errorClass:
            return "python"
        return "unknown"

    @property
    def code_language(self) -> str:
        """The language of the record's code fields, for syntax highlighting."""
        path = self.filePath or ""
        if path.endswith(".py") or self.language == "python":
            return "python"
        if path.endswith(".rs") or self.language == "rust":
            return "rust"
        if path.endswith((".c", ".h")):
            return "c"
        if path.endswith((".cpp", ".cc", ".hpp", ".cu")):
            return "cpp"
        return "text"


@dataclass(frozen=True)
class Frame:
    """One stack frame: where, and in which function."""

    file: str
    line: int | None = None
    column: int | None = None
    function: str | None = None
    code: str | None = None


@dataclass(frozen=True)
class ErrorEvent:
    """One error found in the input: a panic, an exception, or a bare pasted message."""

    language: Language
    error_type: str | None
    message: str
    location: Frame | None = None
    frames: tuple[Frame, ...] = ()
    user_frame: Frame | None = None
    chained: Literal["cause", "context"] | None = None
    source: str = ""  # which extractor found it
    thread: str | None = None
    test: str | None = None
    count: int = 1
    line_number: int = 0  # 1-based line in the input where the event starts


@dataclass(frozen=True)
class Candidate:
    """A record scored against an event."""

    record: Record
    score: float
    method: Literal["regex", "fuzzy"]
    span: tuple[int, int] | None = None  # the matched span in the event's message
    reasons: tuple[str, ...] = ()


@dataclass(frozen=True)
class Match:
    """An event with its candidates: `matches` at or above the cut-off, `near` below it."""

    event: ErrorEvent
    matches: tuple[Candidate, ...] = ()
    near: tuple[Candidate, ...] = ()

    @property
    def best(self) -> Candidate | None:
        return self.matches[0] if self.matches else None


@dataclass(frozen=True)
class Problem:
    """A problem found while loading or validating records."""

    path: str
    message: str
    line: int | None = None
    field: str | None = None

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        what = f"field '{self.field}': {self.message}" if self.field else self.message
        return f"{where}: {what}"


@dataclass(frozen=True)
class RecordSet:
    """The loaded records (later sources replace earlier ids) and the problems met on the way."""

    records: tuple[Record, ...] = ()
    problems: tuple[Problem, ...] = ()
    sources: tuple[str, ...] = field(default=())
