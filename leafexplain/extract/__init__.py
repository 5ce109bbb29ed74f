"""The ordered registry of extractors: text in, every error event found, in input order."""

from __future__ import annotations

import re
from collections.abc import Callable

from leafexplain.extract import clues, python
from leafexplain.extract import pytest as pytest_report
from leafexplain.extract.common import exception_class, short_class
from leafexplain.extract.paste import unfold
from leafexplain.models import ErrorEvent
from leafexplain.regex import lazy_regex

Extractor = Callable[[list[str], list[bool]], list[ErrorEvent]]

# Order matters: an extractor claims the lines it used, and later ones skip them. Each row: its name, the
# extractor (a module's function, that module imported at the first text holding one of the row's clues), and
# those clues (`extract/clues.py`: the words without which it finds nothing; None: every text is read).
EXTRACTORS: tuple[tuple[str, Extractor | tuple[str, str], tuple[str, ...] | frozenset[str] | None], ...] = (
    ("doctest-expected", python.claim_doctest_expectations, ("Expecting:", "Expected:")),
    ("rust", ("rust", "extract"), clues.RUST_PANIC + tuple(clues.CARGO_VERBS)),
    # a diagnostic as JSON before rustc's printed ones (its line holds their words, quoted)
    ("rustc-json", ("rustc_json", "extract"), clues.RUSTC_JSON),
    # after the panics (a message may quote rustc), before Python's `error:` lines
    ("rustc", ("rustc", "extract"), clues.RUSTC_WORDS),
    # after rust: a `Caused by:` inside a panic's message is the panic's
    ("rust-reports", ("rust_reports", "extract"), clues.REPORT_ANCHORS),
    ("python-debugger", ("debugger", "extract"), clues.DEBUGGER_HEADERS),
    ("python", python.extract, None),
    ("jupyter", ("jupyter", "extract"), clues.JUPYTER),
    ("pytest", pytest_report.extract, None),
    ("fatal", ("fatal", "extract"), clues.FATAL),
    ("python-bare", python.extract_bare, None),
    ("absl-status", ("status", "extract"), clues.STATUS),
    # last: an exception line inside a sentence, on a line no other extractor took
    ("python-prose", ("prose", "extract"), clues.PROSE),
)


def _extractor(row: Extractor | tuple[str, str]) -> Extractor:
    """The row's extractor, its module imported now if it is not yet (`__import__`, not importlib: see Start-up)."""
    if callable(row):
        return row
    module, function = row
    return getattr(__import__(f"leafexplain.extract.{module}", fromlist=[function]), function)


# A short text with no recognisable error around it is taken as a pasted message.
MAX_BARE_MESSAGE_LINES = 20
# In a pasted text, the paragraphs no extractor took are looked up too, for an error's exact
# wording (a library's banner printed before the traceback, a message quoted in chatter).
MAX_PARAGRAPHS = 200


def _bare_message(text: str, typed: bool) -> list[ErrorEvent]:
    """The whole text as one message: certain when a person typed it as arguments, a guess otherwise."""
    stripped = text.strip()
    if not stripped or stripped.count("\n") >= MAX_BARE_MESSAGE_LINES:
        return []
    if exception_class(stripped):  # `AssertionError` alone: an exception of that class, with no message
        return [ErrorEvent("python", stripped, "", extractor="message", line_number=1, tentative=not typed)]
    event = ErrorEvent(
        language="unknown", error_type=None, message=stripped, extractor="message", line_number=1, tentative=not typed
    )
    return [event]


def drop_summary_repeats(events: list[ErrorEvent]) -> list[ErrorEvent]:
    """pytest's `FAILED ... - Error: msg` line repeats a failure already found in full above it."""
    full = [e for e in events if e.extractor != "pytest-summary"]

    def repeated(summary: ErrorEvent) -> bool:
        head = summary.message.removesuffix("...").strip()
        return any(
            short_class(e.error_type) == short_class(summary.error_type) and e.message.startswith(head) for e in full
        )

    return [e for e in events if e.extractor != "pytest-summary" or not repeated(e)]


def group_identical(events: list[ErrorEvent]) -> list[ErrorEvent]:
    """Identical errors (same type, message and place) become one event with a count."""
    first: dict[tuple[object, ...], ErrorEvent] = {}
    counts: dict[tuple[object, ...], int] = {}
    for event in events:
        loc = event.location
        key = (event.language, event.error_type, event.message, loc.file if loc else None, loc.line if loc else None)
        if key in first:
            counts[key] += event.count
        else:
            first[key], counts[key] = event, event.count
    # One new event per error that repeats, not one per copy (a log of 100,000 copies of one traceback).
    return [event if counts[key] == event.count else event._replace(count=counts[key]) for key, event in first.items()]


def _paragraphs(lines: list[str], claimed: list[bool]) -> list[ErrorEvent]:
    """The stretches of lines no extractor claimed, between blank lines: each a guess, kept only
    if a record's wording is found in it."""
    events: list[ErrorEvent] = []
    start: int | None = None
    for i in range(len(lines) + 1):
        blank = i == len(lines) or claimed[i] or not lines[i].strip()
        if start is not None and (blank or i - start >= MAX_BARE_MESSAGE_LINES):
            text = "\n".join(lines[start:i]).strip()
            # A lone `raise` statement is the code a traceback quotes, its message not yet filled in: not an error.
            if "\n" in text or not text.startswith("raise "):
                events.append(
                    ErrorEvent("unknown", None, text, extractor="paragraph", line_number=start + 1, tentative=True)
                )
            start = None
            if len(events) >= MAX_PARAGRAPHS:
                break
        if start is None and not blank:
            start = i
    return events


def events_in(
    text: str, *, bare: bool = True, first_line: int = 1, typed: bool = False, paragraphs: bool = False
) -> list[ErrorEvent]:
    """The events of one stretch of text, in order, with line numbers counted from `first_line`.

    `bare`: the text is the whole input, so with nothing else found it may be a pasted message;
    `typed`: a person gave it as arguments, so that message is meant as an error;
    `paragraphs`: also the stretches no extractor took, as guesses for an error's exact wording.
    """
    lines, origin = unfold(text.split("\n"))
    claimed = [False] * len(lines)
    events: list[ErrorEvent] = []
    joined = "\n".join(lines)
    for _name, extractor, words in EXTRACTORS:
        if words is None or any(word in joined for word in words):
            events.extend(_extractor(extractor)(lines, claimed))
    if bare and not events and len(lines) <= MAX_BARE_MESSAGE_LINES:
        # Lines an extractor claimed without an event (cargo's progress, doctest's expected output) are not it.
        unclaimed = "\n".join(line for line, taken in zip(lines, claimed, strict=True) if not taken)
        events = _bare_message(unclaimed if any(claimed) else text, typed)
    elif paragraphs:
        events.extend(_paragraphs(lines, claimed))
    events.sort(key=lambda e: e.line_number)
    imported = _imports(text) if any(not e.frames for e in events) else ()
    return [
        e._replace(
            line_number=origin[min(e.line_number, len(origin)) - 1] + first_line,
            language=_language(e),
            imports=() if e.frames or e.error_type == "compile" else imported,
        )
        for e in events
    ]


# `import x`, `from x.y import z`, at a line's start or after a prompt (`>>> `, `In [3]: `).
_IMPORT = lazy_regex(
    r"^[ \t]*(?:>>> |\.\.\. |In \[\d+\]: )?"
    r"(?:from[ \t]+([A-Za-z_]\w*)[\w.]*[ \t]+import\b|import[ \t]+([A-Za-z_]\w*))",
    re.M,
)
MAX_IMPORTS = 10


def _imports(text: str) -> tuple[str, ...]:
    """The top packages the text imports, in order, each once: the libraries a message with no frames may be from."""
    if "import" not in text:  # most logs: no regex compiled
        return ()
    names = (a or b for a, b in _IMPORT.findall(text))
    return tuple(dict.fromkeys(names))[:MAX_IMPORTS]


def _language(event: ErrorEvent) -> str:
    """PyO3 raises a Rust panic in Python as `pyo3_runtime.PanicException`, its message the panic's: a Rust panic
    for the records (polars, tokenizers and every PyO3 library), with the Python frames that led to it."""
    if event.language == "python" and short_class(event.error_type) == "PanicException":
        return "rust"
    return event.language


def finish(events: list[ErrorEvent]) -> list[ErrorEvent]:
    """The events of a whole input: pytest's summary lines that repeat a failure dropped, identical ones grouped."""
    return group_identical(drop_summary_repeats(events))
