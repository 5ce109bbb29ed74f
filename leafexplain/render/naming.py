"""Records, matches and errors said in words, as a person would: which record, which wording, how sure
(numbers only when asked), the error's line, the command that shows a record."""

from __future__ import annotations

from leafexplain.libraries import library_name
from leafexplain.models import Candidate, ErrorEvent, Record
from leafexplain.records.patterns import compile_pattern, placeholder_only, split_pattern
from leafexplain.render.fitting import one_line, shorten
from leafexplain.text import shell_word

TITLE_CHARS = 48  # a record named by its message: enough words to recognise it on one line
WORDING_CHARS = 40


def headline(record: Record) -> str:
    """The line of the message that its pattern matches: for multi-line messages, the telling one."""
    if "\n" not in record.errorMessage:  # one line: no pattern to compile (a table of 100,000 records)
        return one_line(record.errorMessage[:300])
    hit = compile_pattern(record.messagePattern).search(record.errorMessage)
    start = record.errorMessage.rfind("\n", 0, hit.start()) + 1 if hit else 0
    return one_line(record.errorMessage[start : start + 300].split("\n", 1)[0])


def wording_headline(record: Record) -> str:
    """The record's wording as a person reads it, each placeholder shown as `…`: its example message's values
    (`No module named 'sklearn'` beside an error about another module) would read as a wrong match. Of a
    wording on several lines, the first that says something."""
    text = "".join("…" if part is None else part for part in split_pattern(record.messagePattern))
    telling = [line for line in text.split("\n") if sum(ch.isalpha() for ch in line) >= 4]
    return one_line(telling[0] if telling else text)


def record_title(record: Record, limit: int = TITLE_CHARS) -> str:
    """A record named by its wording, shortened: `"index out of bounds: the len is … but the index is…"`; a
    record for an exception class as such by its class (`for KeyError`)."""
    if record.errorClass and placeholder_only(record.messagePattern):
        return f"for {shorten(one_line(record.errorClass), limit)}"
    return f'"{shorten(wording_headline(record), limit)}"'


def library(record: Record) -> str:
    """The library a record's error comes from, in words: rustc for a compile error (not Rust's std)."""
    if record.errorType == "compile":
        return "rustc"
    return one_line(library_name(record.repo), 100)


def wording_versions(wording: str) -> str:
    """The releases a wording belongs to, without the notes a record adds in brackets."""
    return shorten(one_line(wording, 500).split(" (", 1)[0], WORDING_CHARS)


def confidence_words(candidate: Candidate) -> str:
    """How sure, as the candidate says it (`exact wording`, `class-level (its exception class alone)`, `similar
    message`), the releases of another wording without the notes a record adds to them: `same error, wording of
    torch <= 1.13`."""
    if candidate.method == "regex" and candidate.wording:
        return f"same error, wording of {wording_versions(candidate.wording)}"
    return one_line(candidate.confidence, 200)


def match_numbers(candidate: Candidate) -> str:
    """What the matcher measured: method, score, matched characters, the record's id."""
    numbers = f"{candidate.method}, score {candidate.score:g}"
    if candidate.span:
        numbers += f", characters {candidate.span[0]}-{candidate.span[1]}"
    return f"{numbers}, id {one_line(candidate.record.id, 100)}"


def match_words(candidate: Candidate, *, verbose: bool = False, title_chars: int = TITLE_CHARS) -> str:
    """`the burn record "Can't convert a non leaf…", exact wording`; with `verbose`, the numbers too."""
    record = candidate.record
    said = f"the {library(record)} record {record_title(record, title_chars)}, {confidence_words(candidate)}"
    return f"{said} ({match_numbers(candidate)})" if verbose else said


def match_words_within(candidate: Candidate, room: int, *, verbose: bool = False) -> str:
    """The match in words, the record's message shortened so that it all fits in `room` columns when it can."""
    whole = match_words(candidate, verbose=verbose, title_chars=10_000)
    over = len(whole) - room
    if over <= 0:
        return whole
    title = len(wording_headline(candidate.record))
    if title - over < TITLE_CHARS // 2:  # it takes two rows whatever: the message as long as usual
        return match_words(candidate, verbose=verbose)
    return match_words(candidate, verbose=verbose, title_chars=title - over)


def near_words(candidate: Candidate, *, verbose: bool = False) -> str:
    """A record below the cut-off, for an error nothing explains: named, and how close when asked."""
    said = f"{record_title(candidate.record)} ({library(candidate.record)})"
    return f"{said}: {match_numbers(candidate)}" if verbose else said


def error_text(event: ErrorEvent) -> str:
    """The error as it was printed: `KeyError: 'x'`, or the message alone for an error without a type."""
    return f"{event.error_type}: {event.message}" if event.error_type else event.message


def show_command(record_id: str) -> str:
    """`leafexplain show ID`: a command to copy, so the id is quoted for the shell (whatever a record holds)."""
    return f"leafexplain show {shell_word(record_id)}"
