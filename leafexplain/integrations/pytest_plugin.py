"""The pytest plugin: with `--explain` (or `leafexplain_explain = true`), each failing test's report gets a
"leafexplain" section saying what its error means, how to fix it, and where the library raises it.

Installed with the package (entry point `pytest11`), so it is loaded into every pytest run: until
asked for it only adds the option, and it imports nothing heavy.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

import pytest

OPTION = "leafexplain_explain"
PLUGIN_NAME = "leafexplain-explainer"
SECTION = "leafexplain"
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


class Explainer:
    """Registered only when explaining was asked for; the records are loaded at the first failure."""

    def __init__(self) -> None:
        self.records: Any = None

    def explain(self, excinfo: pytest.ExceptionInfo[BaseException]) -> str:
        from leafexplain import session
        from leafexplain.env import terminal_columns
        from leafexplain.render.summary import summary_text

        if self.records is None:
            self.records = session.RecordsOnce()
        report = session.explain_exception(excinfo.type, excinfo.value, excinfo.tb, self.records)
        return summary_text(report.findings, min(terminal_columns(), MAX_WIDTH)) if report.findings else ""

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
