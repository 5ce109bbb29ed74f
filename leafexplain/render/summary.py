"""A short summary of explained errors, a few lines each: the pytest plugin's section in a failing test's report."""

from __future__ import annotations

import shlex
import textwrap
from collections.abc import Iterable

from leafexplain.models import Finding
from leafexplain.render.document import safe
from leafexplain.render.words import match_words

SOLUTIONS_SHOWN = 3
MEANING_SENTENCES = 2


def first_sentences(text: str, count: int) -> str:
    """The start of a paragraph: enough to say what an error means without the whole story."""
    words = " ".join(text.split())
    end = 0
    for _ in range(count):
        found = words.find(". ", end)
        if found < 0:
            return words
        end = found + 2
    return words[: end - 1]


def show_command(record_id: str) -> str:
    """`leafexplain show ID`: a command to copy, so the id is quoted for the shell (whatever a record holds)."""
    return f"leafexplain show {shlex.quote(record_id)}"


def summary_text(findings: Iterable[Finding], width: int = 100) -> str:
    """What each explained error means, its first fixes and its link: a few lines for a test report."""

    def wrapped(text: str, first: str, rest: str) -> list[str]:
        return textwrap.wrap(text, width, initial_indent=first, subsequent_indent=rest) or [first]

    blocks: list[str] = []
    seen: set[str] = set()
    for finding in findings:
        best = finding.best
        if best is None or best.record.id in seen:
            continue
        seen.add(best.record.id)
        record, event = best.record, finding.event
        what = f"{event.error_type}: {event.message}" if event.error_type else event.message
        # The match in words, as the default view says it: the slug carries the record's example values.
        lines = [safe(what.strip().split("\n", 1)[0], 300), f"matched {match_words(best)}"]
        if record.documentation:
            meaning = safe(first_sentences(record.documentation, MEANING_SENTENCES))
            lines += ["", "What it means", *wrapped(meaning, "  ", "  ")]
        solutions = [safe(s, 500) for s in record.solutions[:SOLUTIONS_SHOWN] if s.strip()]
        if solutions:
            lines += ["", "How to fix it"]
            for number, solution in enumerate(solutions, 1):
                lines += wrapped(solution, f"  {number}. ", "     ")
        if record.working_url:
            lines += ["", f"Where it is raised: {safe(record.working_url, 500)}"]
        lines.append(f"More: {show_command(record.id)}")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)
