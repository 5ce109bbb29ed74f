"""The default view's content for each error: what a person reads first, chosen from the finding and its record.

A Brief holds no width or colour: `render/layout.py` lays it out to fit one terminal screen, the
Markdown format writes it as it is. `--full` uses the long view of `render/document.py` instead.
"""

from __future__ import annotations

import difflib
import os
import re
from collections.abc import Callable, Sequence

from leafexplain.libraries import rust_error_page
from leafexplain.models import Candidate, ErrorEvent, Finding, Located, Raised, Record, Report, Snippet
from leafexplain.named import NamedTuple
from leafexplain.regex import lazy_regex
from leafexplain.render.document import format_frame
from leafexplain.render.fitting import code_only, first_sentences, one_line, safe, shorten
from leafexplain.render.naming import confidence_words, library, match_words, near_words, show_command
from leafexplain.render.sections import other_line, raised_library, raised_where
from leafexplain.text import safe_link, shell_word

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: the default view is everyday start-up
if TYPE_CHECKING:
    from typing import Literal

MAX_FIXES = 3
WHY_CHARS = 420  # the documentation's first sentences; the layout crops them to three lines
FIX_CHARS = 400
CONTEXT_LINES = 1  # of the user's code, either side of their line
SEARCH_WORDS = 6
# Records write their example as `# before` / `// before`, the failing code, then `# after` and the fix.
_EXAMPLE_MARK = lazy_regex(r"^\s*(?://|#)\s*(before|after)\s*:?\s*$", re.IGNORECASE)
_SEARCHABLE = lazy_regex(r"[A-Za-z][A-Za-z_'-]{2,}")


class CodeLine(NamedTuple):
    """A line of the user's code: its number (when known), its text, and whether it is the frame's line."""

    number: int | None
    text: str
    marked: bool = False


class ExampleLine(NamedTuple):
    """A line of the example fix: `-` the failing code, `+` the fix, ` ` code shown as it is."""

    mark: Literal["-", "+", " "]
    text: str
    hunk: int = 0  # which change of the fix the line belongs to (its lines `-` first, then `+`)


class Explanation(NamedTuple):
    """One record's explanation of the error, cut to what a person reads in ten seconds."""

    candidate: Candidate
    matched: str  # which record, which wording, how sure
    confidence: str
    why: str
    fixes: tuple[str, ...]
    example: tuple[ExampleLine, ...]
    language: str
    verbose: bool  # the matcher's numbers go with the matched line
    raised: str | None  # where the library raises it, in words
    url: str | None  # that place on GitHub (checked)
    more: str  # the command that shows everything


class RaisedLines(NamedTuple):
    """Where a library raised an error no record explains: the library, its version and the place in words,
    the raising line (and its guard, and the line the statement goes on to), and that place's link."""

    library: str  # `torch 2.13.0+cpu`
    where: str  # `…/torch/_tensor.py:691 in register_hook`
    code: tuple[CodeLine, ...]
    language: str
    url: str | None  # the line in the library's repository at that version (checked)
    note: str | None  # the file changed since the run, or why the link is the tag only


class Brief(NamedTuple):
    """One error in the default view: what it is, your code, and its explanations, the most specific first."""

    heading: str  # error type · library · how sure
    message: str
    span: tuple[int, int] | None
    where: str | None  # your frame
    context: tuple[str, ...]  # the test, the thread, how often, how it is chained
    code: tuple[CodeLine, ...]
    code_language: str
    explanations: tuple[Explanation, ...]  # the error inside a wrapper first, then the wrapper
    others: tuple[str, ...] = ()  # --all: the other records at or above the cut-off
    near: tuple[str, ...] = ()  # nothing explains it: the nearest records below the cut-off
    search: str | None = None  # ... and a search to try
    compiler: str | None = None  # ... and for a compile error's code, what `rustc --explain` says (its opening)
    compiler_page: str | None = None  # ... and the error index's page of that code
    repeat_of: int | None = None  # its record was explained above, for this error number
    raised: RaisedLines | None = None  # ... and where the library raised it, read here (issue 25)


def _changes(before: list[str], after: list[str], same: Callable[[str], str]) -> list[ExampleLine]:
    """The lines that differ, `-` before and `+` after, comparing `same` of each line without its trailing
    comment (a comment the fix drops is no change worth showing)."""
    old, new = [same(code_only(b)) for b in before], [same(code_only(a)) for a in after]
    lines = []
    opcodes = difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes()
    for hunk, (tag, i1, i2, j1, j2) in enumerate(opcodes):
        if tag != "equal":
            lines += [ExampleLine("-", line, hunk) for line in before[i1:i2] if line.strip()]
            lines += [ExampleLine("+", line, hunk) for line in after[j1:j2] if line.strip()]
    return lines


def example_lines(example_fix: str | None) -> tuple[ExampleLine, ...]:
    """The example fix as a short before/after: the lines that change, `-` before and `+` after.

    A record's `after` is often a whole program that runs; the lines it shares with `before`
    (imports, the setup) say nothing about the fix, so only the differing ones are kept.
    """
    if not example_fix or not example_fix.strip():
        return ()
    parts: dict[str, list[str]] = {"": [], "before": [], "after": []}
    part = ""
    for line in safe(example_fix, 8000).split("\n"):
        marker = _EXAMPLE_MARK.match(line)
        if marker:
            part = marker.group(1).lower()
            continue
        parts[part].append(line)
    before, after = parts["before"], parts["after"]
    if not after:  # not in the before/after layout: the code as it is
        lines = [ExampleLine(" ", line) for line in parts[""] + before if line.strip()]
    else:
        # Lines compared as written, and without their indentation: a fix that wraps the code in a
        # function or a block re-indents it all, and only the lines it adds say what changed. The
        # shorter of the two differences is shown (as written, when they are as long).
        lines = min(_changes(before, after, str.rstrip), _changes(before, after, str.strip), key=len)
        lines = lines or [ExampleLine("+", line) for line in after if line.strip()]
    # The margin every line shares, taken off as textwrap.dedent would (each line here holds code), without
    # importing textwrap (0.5 ms: it compiles its patterns as it loads).
    margins = [line.text[: len(line.text) - len(line.text.lstrip())] for line in lines]
    margin = os.path.commonprefix(margins)  # noqa: RUF071 -- characters, as textwrap compares margins
    return tuple(line._replace(text=line.text[len(margin) :].rstrip()) for line in lines)


def raised_words(record: Record, event: ErrorEvent) -> str | None:
    """Where the library raises it, and where the run did when that is another line of the file; for a compile
    error, the error index's page of its code (the record's file is that page's source)."""
    if record.errorType == "compile" and rust_error_page(record.errorCode):
        return f"rustc's error index, {safe(record.errorCode or '', 20)}"
    if not record.filePath:
        return None
    where = safe(record.filePath, 300) + (f":{record.lineNumber}" if record.lineNumber else "")
    notes = []
    place = record.release_place
    if place is not None and place.lineNumber:  # the record's commit is gone: where the message is in a release
        notes.append(f"line {place.lineNumber} at {safe(place.commit or '', 64)[:10]}")
    moved = other_line(record, event)
    if moved is not None:
        notes.append(f"your run: line {moved}")
    return f"{library(record)}, {where}" + (f" ({'; '.join(notes)})" if notes else "")


def explanation(candidate: Candidate, event: ErrorEvent, *, verbose: bool) -> Explanation:
    record = candidate.record
    fixes = tuple(shorten(one_line(s, 2 * FIX_CHARS), FIX_CHARS) for s in record.solutions if s and s.strip())
    return Explanation(
        candidate=candidate,
        matched=match_words(candidate, verbose=verbose),
        confidence=confidence_words(candidate),
        why=shorten(first_sentences(record.documentation or "", limit=WHY_CHARS), 2 * WHY_CHARS),
        fixes=fixes[:MAX_FIXES],
        example=example_lines(record.exampleFix),
        language=record.code_language,
        verbose=verbose,
        raised=raised_words(record, event),
        url=safe_link(
            record.working_url or (rust_error_page(record.errorCode) if record.errorType == "compile" else None)
        ),
        more=show_command(one_line(record.id, 100)),
    )


def _code(event: ErrorEvent, snippet: Snippet | None) -> tuple[CodeLine, ...]:
    """The user's line with one either side, from their file; else the line a Python traceback printed."""
    if snippet is not None and snippet.lines:
        at = snippet.line - snippet.start
        first = max(at - CONTEXT_LINES, 0)
        chosen = snippet.lines[first : at + CONTEXT_LINES + 1]
        return tuple(
            CodeLine(snippet.start + first + n, safe(text, 1000), snippet.start + first + n == snippet.line)
            for n, text in enumerate(chosen)
        )
    frame = event.user_frame
    if frame is not None and frame.code and frame.code.strip():
        return (CodeLine(frame.line, safe(frame.code.strip(), 1000), True),)
    return ()


def _context(event: ErrorEvent, snippet: Snippet | None) -> tuple[str, ...]:
    said = []
    if event.test:
        said.append(f"test {safe(event.test, 200)}")
    if event.thread == "<unnamed>":  # what Rust calls a spawned thread nobody named
        said.append("an unnamed thread")
    elif event.thread and event.thread not in ("main", event.test):
        said.append(f"thread {safe(event.thread, 200)}")
    if event.count > 1:
        said.append(f"seen {event.count} times")
    if event.chained:
        said.append(f"the {event.chained} of the next exception")
    if event.report:  # human-panic's report file: the panic's message and place are in it
        said.append(f"report written to {safe(event.report, 300)}")
    if snippet is not None and snippet.note:
        said.append(safe(snippet.note, 300))
    return tuple(said)


def _raising_code(raised: Raised) -> tuple[CodeLine, ...]:
    """The raising line, with its guard when that is one of the two lines above it and the line after it
    when the statement goes on there (`raise RuntimeError(` and its message below): three lines at most."""
    if not raised.lines or raised.line is None:
        return ()
    at = raised.line - raised.start
    if not 0 <= at < len(raised.lines):
        return ()
    first = at
    if raised.condition:
        guard = [n for n in range(max(at - 2, 0), at) if raised.lines[n].strip().startswith(raised.condition)]
        first = guard[-1] if guard else at
    last = at + 1 if raised.lines[at].rstrip().endswith(("(", "[", "{", ",", "\\")) else at
    last = min(last, len(raised.lines) - 1, first + 2)
    return tuple(
        CodeLine(raised.start + n, safe(raised.lines[n].rstrip(), 1000), n == at) for n in range(first, last + 1)
    )


def raised_lines(raised: Raised | None) -> RaisedLines | None:
    """What the default view says of where a library raised the error; None when no library is known."""
    if not raised or not raised.library:  # a lookup that found nothing is falsy (locate/raised.py)
        return None
    if raised.changed:
        note = "the file changed since the run: its lines are not shown"
    else:
        note = safe(raised.url_note, 300) if raised.url_note else None
    code = _raising_code(raised)
    return RaisedLines(raised_library(raised), raised_where(raised), code, raised.language, safe_link(raised.url), note)


def _search(message: str) -> str:
    words = _SEARCHABLE.findall(one_line(message, 300))[:SEARCH_WORDS]
    return f"leafexplain search {shell_word(' '.join(words))}" if words else "leafexplain search WORDS"


_LANGUAGE_NAMES = {"python": "Python", "rust": "Rust"}  # as the library names of explained errors are written


def brief(finding: Finding, located: Located | None = None, *, verbose: bool = False, show_all: bool = False) -> Brief:
    """One finding's default view; `located` adds the user's code read from this machine."""
    event = finding.event
    snippet = located.user if located else None
    where = format_frame(event.user_frame) if event.user_frame else None
    language = snippet.language if snippet else event.language
    message = safe(event.message, keep_tabs=True)
    best = finding.best
    if best is None:
        kind = [event.error_type or "error", event.code, _LANGUAGE_NAMES.get(event.language), "no record"]
        said = located.explanation if located else None
        return Brief(
            heading=" · ".join(safe(p, 200) for p in kind if p),
            message=message,
            span=None,
            where=where,
            context=_context(event, snippet),
            code=_code(event, snippet),
            code_language=language,
            explanations=(),
            near=tuple(near_words(c, verbose=verbose) for c in finding.near),
            search=_search(event.message),
            compiler=None if said is None or not said.text else safe(said.text, 1000),
            compiler_page=None if said is None else safe_link(said.url),
            raised=raised_lines(located.raised if located else None),
        )
    # One error carried inside another (`unwrap()` on an `Err` holding a torch error): the record of
    # the error inside (the payload, ranked first) is the specific explanation, shown in full; the
    # wrapper's record follows as one line.
    wrappers = [c for c in finding.matches[1:] if c.role == "wrapper"] if best.role == "payload" else []
    layers = [best, *wrappers[:1]]
    explanations = tuple(explanation(c, event, verbose=verbose) for c in layers)
    record = best.record
    kind = [
        event.error_type or record.errorClass or record.errorType,
        event.code,
        library(record),
        explanations[0].confidence,
    ]
    span = best.span if best.span and best.span[0] < len(message) else None
    return Brief(
        heading=" · ".join(safe(p, 200) for p in kind if p),
        message=message,
        span=(span[0], min(span[1], len(message))) if span else None,
        where=where,
        context=_context(event, snippet),
        code=_code(event, snippet),
        code_language=language,
        explanations=explanations,
        others=tuple(match_words(c, verbose=verbose) for c in finding.matches[1:] if c not in layers)
        if show_all
        else (),
        # A class-level answer says what the class means; where the library raised it says what happened.
        raised=raised_lines(located.raised if located else None) if best.method == "class" else None,
    )


def briefs(report: Report, *, verbose: bool = False, show_all: bool = False) -> list[Brief]:
    """A brief per finding, in order; an error whose record was explained above refers to it."""
    located: Sequence[Located | None] = report.located or [None] * len(report.findings)
    out: list[Brief] = []
    explained: dict[str, int] = {}
    for number, (finding, found) in enumerate(zip(report.findings, located, strict=True), start=1):
        made = brief(finding, found, verbose=verbose, show_all=show_all)
        if finding.best is not None:
            key = finding.best.record.id
            if key in explained:
                made = made._replace(repeat_of=explained[key])
            explained.setdefault(key, number)
        out.append(made)
    return out


def count_line(report: Report) -> str | None:
    """`3 errors: 2 explained, 1 unknown`, when there are several."""
    total = len(report.findings)
    if total < 2:
        return None
    explained = sum(1 for f in report.findings if f.matches)
    parts = [f"{explained} explained"] + ([f"{total - explained} unknown"] if explained < total else [])
    return f"{total} errors: {', '.join(parts)}"
