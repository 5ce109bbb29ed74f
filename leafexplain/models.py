"""Every type passed between the stages: records, events, findings, the report, what was found on this machine.

All are NamedTuples: immutable, compared by value, and built in a fraction of a dataclass's time
(every run of the command pays for building its classes; `dataclasses` alone imports `inspect`,
`ast` and `tokenize`). Change one with `_replace`. The two exceptions are the input's failures: `intake/`
raises them, `session` turns a read error into `Report.input_error`, and the command line says NoInput.
"""

from __future__ import annotations

from leafexplain.exitcodes import ExitStatus
from leafexplain.named import NamedTuple

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: the everyday path does without it
if TYPE_CHECKING:
    from typing import Literal

    Language = Literal["rust", "python", "unknown"]
    Drift = Literal["none", "moved", "changed", "gone", "unknown"]
    VerifyStatus = Literal["ok", "moved", "missing-file", "not-found", "missing-commit"]
else:
    Language = Drift = VerifyStatus = str  # at run time, what each of them is

# --- records -------------------------------------------------------------------------------------


class Variant(NamedTuple):
    """Another wording of a record's error, in other releases of its library (`messageVariants`).

    `versions` says which releases print it, in plain words. The four location fields, when given,
    say where that wording is raised at a commit that exists; an entry may repeat the record's own
    pattern only to give such a place (when the record's own commit is not in the history).
    """

    messagePattern: str
    versions: str
    errorClass: str | None = None
    commit: str | None = None
    filePath: str | None = None
    lineNumber: int | None = None
    githubUrl: str | None = None
    recordCommitMissing: bool = False  # the record's own commit is not in the history: this is its place instead


class Record(NamedTuple):
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
    messageVariants: tuple[Variant, ...] = ()  # our extension: optional, see records/schema.py
    datasetVersion: str | None = None
    origin: str = ""  # file (and line) the record was loaded from

    @property
    def language(self) -> Language:
        """Rust for panics and compile errors; Python for exceptions and warnings."""
        if (self.errorType or "").lower() in ("panic", "compile"):
            return "rust"
        if self.errorType or self.errorClass:
            return "python"
        return "unknown"

    @property
    def release_place(self) -> Variant | None:
        """Where the record's own wording is raised at another commit, when its history gives one (the
        seed's commit is not in burn's history: its message is at v0.20.1, line 90)."""
        return next((v for v in self.messageVariants if v.recordCommitMissing and v.githubUrl), None)

    @property
    def working_url(self) -> str | None:
        """The link to show: the record's own, or where its commit is missing, its wording's place at a release."""
        place = self.release_place
        return place.githubUrl if place is not None else self.githubUrl

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


class Problem(NamedTuple):
    """A problem found while loading or validating records."""

    path: str
    message: str
    line: int | None = None
    field: str | None = None

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        what = f"field '{self.field}': {self.message}" if self.field else self.message
        return f"{where}: {what}"


class RecordSet(NamedTuple):
    """Records read whole from their files (validate, verify, import), and the problems met on the way."""

    records: tuple[Record, ...] = ()
    problems: tuple[Problem, ...] = ()
    sources: tuple[str, ...] = ()


class Verdict(NamedTuple):
    """`verify`: where a record's message stands in a copy of its repository."""

    record: Record
    status: VerifyStatus
    found_line: int | None = None
    detail: str = ""

    @property
    def ok(self) -> bool:
        return self.status == "ok"


# --- events and what explains them ---------------------------------------------------------------


class Frame(NamedTuple):
    """One stack frame: where, and in which function."""

    file: str
    line: int | None = None
    column: int | None = None
    function: str | None = None
    code: str | None = None


class ErrorEvent(NamedTuple):
    """One error found in the input: a panic, an exception, or a bare pasted message."""

    language: Language
    error_type: str | None
    message: str
    location: Frame | None = None
    frames: tuple[Frame, ...] = ()
    user_frame: Frame | None = None
    chained: Literal["cause", "context"] | None = None
    extractor: str = ""  # which extractor found it
    thread: str | None = None
    test: str | None = None
    count: int = 1
    line_number: int = 0  # 1-based line in the input where the event starts
    # Found by a guess (a whole short text taken as a message, a warning): kept only when a record
    # explains it, so that a green build, a passing test run or a training log is no error at all.
    tentative: bool = False
    code: str | None = None  # a compiler's error code (rustc's `E0382`): records with that code explain it
    # What a compiler said under its header (rustc's labels, `note:` and `help:` lines): detail a view may show.
    detail: tuple[str, ...] = ()
    report: str | None = None  # the file a panic hook wrote its report to (human-panic)
    # A message with no frames: the top packages the text around it imports (`import sklearn`, `from pandas
    # import ...`), the libraries it may come from (locate/raised_search.py looks there).
    imports: tuple[str, ...] = ()


# Secrets replaced in what was read, by kind: (kind, how many), never a value. None: redaction was off.
Redacted = tuple[tuple[str, int], ...] | None


class InputError(Exception):
    """The input cannot be read: a clear one-line message for the user."""


class NoInput(Exception):
    """Nothing piped, no text, no file: a usage error for the command line to report."""


class Collected(NamedTuple):
    """The events found in one input, identical ones grouped, and how many distinct others were dropped."""

    events: tuple[ErrorEvent, ...] = ()
    dropped: int = 0
    redacted: Redacted = ()  # the secrets replaced in the input before its errors were read


class Candidate(NamedTuple):
    """A record scored against an event."""

    record: Record
    score: float
    # a wording found; a later part of one, its start not in the text; words in common; the exception class alone;
    # the compiler's error code alone
    method: Literal["regex", "part", "fuzzy", "class", "code"]
    span: tuple[int, int] | None = None  # the matched span in the event's message
    reasons: tuple[str, ...] = ()
    wording: str | None = None  # the releases whose wording matched (a messageVariants entry); None: the record's own
    role: Literal["payload", "wrapper"] | None = None  # one error carried inside another's message

    @property
    def confidence(self) -> str:
        """How sure, in words."""
        if self.method == "regex":
            return f"same error, wording of {self.wording}" if self.wording else "exact wording"
        if self.method == "part":
            return "same error, its message's start not in the text"
        if self.method == "class":
            return "class-level (its exception class alone)"
        if self.method == "code":
            return "same error code"
        return "similar message"


class Finding(NamedTuple):
    """An event and the records that explain it: `matches` at or above the cut-off, `near` below it."""

    event: ErrorEvent
    matches: tuple[Candidate, ...] = ()
    near: tuple[Candidate, ...] = ()
    # Records sharing a matched wording past the catalog's bound (records/postings.ROWS_PER_WORDING): not scored.
    unlisted: int = 0

    @property
    def best(self) -> Candidate | None:
        return self.matches[0] if self.matches else None


# --- what was found on this machine ---------------------------------------------------------------


class Snippet(NamedTuple):
    """Lines of a local file around one line (the user's frame)."""

    path: str
    line: int
    start: int  # the line number of lines[0]
    lines: tuple[str, ...]
    language: str = "text"
    note: str = ""  # when the file changed since the run


class LibrarySource(NamedTuple):
    """Where a record's message stands in the library installed here, and how that differs from the record."""

    path: str
    version: str | None
    line: int | None  # None when the message is gone from the file
    start: int
    lines: tuple[str, ...]
    drift: Drift
    note: str  # the drift in words
    language: str = "text"
    url: str | None = None  # the file at the toolchain commit of the backtrace (Rust std)


class CachedSnippet(NamedTuple):
    """The lines around a record's raising line at one commit, from the cache `leafexplain update` fills."""

    repo: str
    commit: str  # the commit the lines came from: the record's own, or a `messageVariants` entry's
    path: str  # relative to the repository root
    line: int  # the raising line, marked
    start: int  # the line number of lines[0]
    lines: tuple[str, ...]
    language: str = "text"
    url: str = ""  # the raising line on GitHub at that commit

    def replaces(self, record: Record) -> bool:
        """These lines come from another commit than the record's (its own was not in the history):
        they show where the message really is, in place of the record's own snippet."""
        own = record.analyzedSha or ""
        return bool(own) and not self.commit.startswith(own[:7]) and not own.startswith(self.commit[:7])


class SourcePlace(NamedTuple):
    """Where a record's message is raised at one commit: what `update` fetches, and the source cache's key."""

    repo: str
    commit: str
    path: str
    line: int
    pattern: str  # the message as the source writes it there: how the raising line is found again
    variant: bool = False  # a `messageVariants` entry's place, not the record's own commit


class FetchOutcome(NamedTuple):
    """`update`: what became of one file it tried (a place's repo, commit and path)."""

    place: SourcePlace
    records: int  # how many records asked for its lines
    status: Literal["fetched", "missing", "failed"]
    reason: str = ""  # why not, in one line
    retried: int = 0  # records that try their next `messageVariants` place instead


class UpdateSummary(NamedTuple):
    """`update`: the files it tried, what each record has now, and why it stopped early if it did."""

    outcomes: tuple[FetchOutcome, ...]
    by_repo: tuple[tuple[str, int, int], ...]  # repo, records with a place, records whose lines are cached now
    cached_before: int  # records whose lines were in the cache already
    fetched: int  # records whose lines were fetched now
    at_variants: int  # records whose lines are at a `messageVariants` place (cached or fetched)
    without_place: int  # records that name no commit, file and line
    not_tried: int  # files left for the next run when this one stopped (the one that stopped it included)
    stopped: str | None  # why the run stopped early
    cache: str  # the cache folder

    @property
    def complete(self) -> bool:
        return all(have == wanted for _, wanted, have in self.by_repo)


class CodeExplanation(NamedTuple):
    """What the compiler says of an error code no record explains: its error index's page, and what
    `rustc --explain` prints here (its opening, trimmed; None: no rustc on this machine, or it said nothing)."""

    code: str
    url: str
    text: str | None = None


class Raised(NamedTuple):
    """Where an error was raised, in the library's own code: read from the library's file on this machine
    (only a file that is a library's in fact: locate/raised.py says the trust model), else what the text
    itself says of the library (a `crate-1.2.3` folder, a `site-packages/<pkg>/` path).

    Every field is present when known. `lines` and `start` have the shape of the user's snippet; `line` is
    the raising line among them. `url` links that line in the library's repository at `version` (or its tag
    only, `url_note` then says why); `issues_url` searches the library's issues for the message's literal
    words; `new_command` is the `leafexplain new` command prefilled from what was found.
    """

    library: str | None = None  # the distribution or crate (`torch`, `serde_json`), `Python` for the stdlib
    version: str | None = None  # its installed version, or the version or commit the text names
    path: str | None = None  # the file read here; None when the file is not on this machine
    line: int | None = None
    start: int = 0
    lines: tuple[str, ...] = ()
    function: str | None = None
    docstring: str | None = None  # the enclosing function's, its first paragraph, parsed from the source
    condition: str | None = None  # the test guarding the raise (`if`, `assert`, `TORCH_CHECK`) when on those lines
    url: str | None = None
    url_note: str | None = None
    issues_url: str | None = None
    docs_url: str | None = None  # docs.rs's source view of a crate's file at its version
    new_command: str | None = None
    changed: bool = False  # the file no longer holds what the run's frame showed there: nothing of it is shown
    language: str = "text"


class Located(NamedTuple):
    """What was found on this machine for one finding: the user's code, and the library source of each match.

    `cached` lines up with `library`: the cached snippet of a match that has neither its own
    `sourceCode` nor an installed source (None otherwise). `explanation`: for a compile error whose
    code no record explains, what the compiler says of it (locate/rustc.py: `rustc --explain` runs
    when a view reads its `text`).
    """

    user: Snippet | None = None
    library: tuple[LibrarySource | None, ...] = ()
    cached: tuple[CachedSnippet | None, ...] = ()
    explanation: CodeExplanation | None = None
    raised: Raised | None = None  # where the library raised it (locate/raised.py), matched or not


# --- the session's result ------------------------------------------------------------------------

MAX_EVENTS = 1000  # distinct errors explained; of a log with more, the first ones


class Limits(NamedTuple):
    """How much one explanation takes on: the cut-off, and bounds on what a huge input can make it hold."""

    threshold: float | None = None  # None: the matcher's own (85)
    max_events: int = MAX_EVENTS
    max_event_chars: int = 64 << 20  # the text the kept events hold (messages, frames), all told


class Report(NamedTuple):
    """The result of one explanation: a finding per event, in input order."""

    findings: tuple[Finding, ...]
    threshold: float
    dropped: int = 0  # distinct errors beyond `limits.max_events`, not explained
    located: tuple[Located, ...] | None = None  # lined up with `findings`; None: not looked up
    limits: Limits = Limits()
    redacted: Redacted = ()  # secrets replaced in the input and in the user's code read here
    # why the input could not be read, or not to its end (what came before it is explained); None: read whole
    input_error: str | None = None

    @property
    def exit_status(self) -> int:
        """0 when an error was explained, or when there was no error at all; 1 when errors went unexplained."""
        if not self.findings or any(f.matches for f in self.findings):
            return ExitStatus.EXPLAINED
        return ExitStatus.NOTHING_MATCHED

    def explained_only(self) -> Report:
        """The findings a record explains (and what was found for them), for outputs that skip the rest."""
        keep = [i for i, f in enumerate(self.findings) if f.matches]
        located = None if self.located is None else tuple(self.located[i] for i in keep)
        return self._replace(findings=tuple(self.findings[i] for i in keep), located=located)
