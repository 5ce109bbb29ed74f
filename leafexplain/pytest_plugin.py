"""pytest plugin: with `--explain` (or `leafexplain_explain = true`), each failing test's report gets a
"leafexplain" section saying what its error means, how to fix it, and where the library raises it.

Installed with the package (entry point `pytest11`), so it is loaded into every pytest run: until
asked for it only adds the option, and it imports nothing heavy.
"""

from __future__ import annotations

import shutil
import textwrap
import traceback
from collections.abc import Generator, Iterable
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from leafexplain.models import Match

OPTION = "leafexplain_explain"
PLUGIN_NAME = "leafexplain-explainer"
SECTION = "leafexplain"
SOLUTIONS_SHOWN = 3
MEANING_SENTENCES = 2
MAX_WIDTH = 120


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("leafexplain", "explaining failures with leafexplain")
    group.addoption(
        "--explain",
        action="store_true",
        default=False,
        dest=OPTION,
        help="add a leafexplain section to each failing test: what the error means, how to fix it, a link.",
    )
    parser.addini(OPTION, type="bool", default=False, help="explain failing tests, as with --explain.")


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption(OPTION) or config.getini(OPTION):
        config.pluginmanager.register(Explainer(), PLUGIN_NAME)


def _first_sentences(text: str, count: int) -> str:
    """The start of a paragraph: enough to say what an error means without the whole story."""
    words = " ".join(text.split())
    end = 0
    for _ in range(count):
        found = words.find(". ", end)
        if found < 0:
            return words
        end = found + 2
    return words[: end - 1]


def summary_text(matches: Iterable[Match], width: int = 100) -> str:
    """What each explained error means, its first fixes and its link: a few lines for a test report."""
    from leafexplain.render.document import safe

    def wrapped(text: str, first: str, rest: str) -> list[str]:
        return textwrap.wrap(text, width, initial_indent=first, subsequent_indent=rest) or [first]

    blocks: list[str] = []
    seen: set[str] = set()
    for match in matches:
        best = match.best
        if best is None or best.record.id in seen:
            continue
        seen.add(best.record.id)
        record, event = best.record, match.event
        what = f"{event.error_type}: {event.message}" if event.error_type else event.message
        lines = [safe(what.strip().split("\n", 1)[0], 300), f"matched {record.repo} · {record.slug}"]
        if record.documentation:
            meaning = safe(_first_sentences(record.documentation, MEANING_SENTENCES))
            lines += ["", "What it means", *wrapped(meaning, "  ", "  ")]
        solutions = [safe(s, 500) for s in record.solutions[:SOLUTIONS_SHOWN] if s.strip()]
        if solutions:
            lines += ["", "How to fix it"]
            for number, solution in enumerate(solutions, 1):
                lines += wrapped(solution, f"  {number}. ", "     ")
        if record.githubUrl:
            lines += ["", f"Where it is raised: {safe(record.githubUrl, 500)}"]
        lines.append(f"More: leafexplain show {record.id}")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


class Explainer:
    """Registered only when explaining was asked for; the records are loaded at the first failure."""

    def __init__(self) -> None:
        self.matcher: Any = None

    def explain(self, excinfo: pytest.ExceptionInfo[BaseException]) -> str:
        from leafexplain.api import load_matcher
        from leafexplain.extract import events_in, finish
        from leafexplain.pipeline import explain_events

        text = "".join(traceback.format_exception(excinfo.type, excinfo.value, excinfo.tb))
        events = finish(events_in(text, bare=False))
        if not events:
            return ""
        if self.matcher is None:
            self.matcher = load_matcher()
        width = min(shutil.get_terminal_size().columns, MAX_WIDTH)
        return summary_text(explain_events(events, self.matcher, None).matches, width)

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_makereport(self, item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, Any, None]:
        outcome = yield
        report = outcome.get_result()
        if not report.failed or call.excinfo is None or call.excinfo.errisinstance(pytest.fail.Exception):
            return
        try:
            text = self.explain(call.excinfo)
        except Exception:  # explaining is a help; it must never turn into a failure of its own
            return
        if text:
            report.sections.append((SECTION, text))
