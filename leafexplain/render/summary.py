"""A short summary of explained errors, a few lines each: the pytest plugin's section in a failing test's report."""

from __future__ import annotations

import textwrap
from collections.abc import Iterable

from leafexplain.models import Finding
from leafexplain.render.fitting import first_sentences, safe
from leafexplain.render.naming import error_text, match_words, show_command

SOLUTIONS_SHOWN = 3
MEANING_SENTENCES = 2


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
        what = error_text(event)
        # The match in words, as the default view says it: the slug carries the record's example values.
        lines = [safe(what.strip().split("\n", 1)[0], 300), f"matched {match_words(best)}"]
        if record.documentation:
            meaning = safe(first_sentences(record.documentation, count=MEANING_SENTENCES))
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
