"""The pytest plugin: with `--explain` (or `leafexplain_explain = true`), each failing test's report gets a
"leafexplain" section saying what its error means, how to fix it, and where the library raises it.

With `--junitxml` too, each explained test case carries the properties `leafexplain_record` (the
record's id) and `leafexplain_url` (where the library raises it), as `record_property` would add
them, and the same short explanation in its `system-out`: CI systems show both per test.

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
RECORD_PROPERTY = "leafexplain_record"
URL_PROPERTY = "leafexplain_url"


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
        config.pluginmanager.register(Explainer(config), PLUGIN_NAME)


class Explainer:
    """Registered only when explaining was asked for; the records are loaded at the first failure."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.records: Any = None

    def explain(self, excinfo: pytest.ExceptionInfo[BaseException]) -> tuple[str, list[tuple[str, str]]]:
        """The short explanation, and the properties naming the record that gives it (none: no record)."""
        from leafexplain import session
        from leafexplain.env import terminal_columns
        from leafexplain.render.summary import summary_text
        from leafexplain.text import safe_link

        if self.records is None:
            self.records = session.RecordsOnce()
        failure = session.LiveException(excinfo.type, excinfo.value, excinfo.tb)
        report = session.explain_request(session.Request(failure, records=self.records))
        best = next((f.best for f in report.findings if f.best is not None), None)
        if best is None:
            return "", []
        properties = [(RECORD_PROPERTY, best.record.id)]
        link = safe_link(best.record.githubUrl)
        if link:
            properties.append((URL_PROPERTY, link))
        return summary_text(report.findings, min(terminal_columns(), MAX_WIDTH)), properties

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_makereport(self, item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, Any, None]:
        outcome = yield
        report = outcome.get_result()
        if not report.failed or call.excinfo is None or call.excinfo.errisinstance(pytest.fail.Exception):
            return
        try:
            text, properties = self.explain(call.excinfo)
        except Exception:  # explaining is a help; it must never turn into a failure of its own
            return
        if text:
            report.sections.append((SECTION, text))
            # As `record_property` does: the test case's properties in the JUnit XML (teardown's report has them).
            item.user_properties.extend(properties)

    @pytest.hookimpl(trylast=True)
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        """With --junitxml, the explanation in the test case's `system-out` (here too under pytest-xdist,
        whose workers send the section along with the report)."""
        if report.when != "call" or not report.failed:
            return
        text = "".join(content for name, content in report.sections if name == SECTION)
        if not text:
            return
        try:
            junit_system_out(self.config, report, text)
        except Exception:  # pytest's JUnit writer changed: the properties are still there
            return


def junit_system_out(config: pytest.Config, report: pytest.TestReport, text: str) -> None:
    """Add `text` as a `system-out` element of the report's test case, when a JUnit XML file is written.

    pytest has no public way to add one: its own writer (the object `--junitxml` registers) takes
    the element as it takes the captured output. With `junit_logging` set to capture stdout, the
    test case then has two `system-out` elements, which the JUnit schema allows.
    """
    import xml.etree.ElementTree as ET

    from _pytest.junitxml import xml_key

    writer = config.stash.get(xml_key, None)
    if writer is None:
        return
    element = ET.Element("system-out")
    element.text = text
    writer.node_reporter(report).append(element)
