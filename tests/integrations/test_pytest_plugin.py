"""The pytest plugin: a "leafexplain" section on failing tests when asked for, and nothing otherwise."""

from __future__ import annotations

import re
import sys
from importlib.metadata import entry_points

import pytest

from leafexplain import session
from tests.conftest import ROOT

pytest_plugins = ["pytester"]

FAILING = """
import json


def test_parses_config():
    assert json.loads("") == {}


def test_parses_another_config():
    json.loads("")


def test_counts():
    assert len([1, 2]) == 3


def test_passes():
    assert True
"""
SECTION_HEADER = re.compile(r"^-+ leafexplain -+$", re.MULTILINE)
RECORD_SLUG = "expecting-value-line-1-column-1-char-0"
PLUGIN = "leafexplain.integrations.pytest_plugin"  # the module the `pytest11` entry point names


def _installed() -> bool:
    return any(ep.value == PLUGIN for ep in entry_points(group="pytest11"))


def _plugin_args() -> list[str]:
    """The plugin comes through its entry point once the package is installed; until then, by name."""
    return [] if _installed() else ["-p", PLUGIN]


def _steady(lines: list[str]) -> str:
    """pytest's output without what changes between runs (timing, addresses) and the header's list
    of installed plugins, which names every plugin, active or not."""
    kept = "\n".join(line for line in lines if not line.startswith("plugins: "))
    return re.sub(r"0x[0-9a-f]+", "0xADDR", re.sub(r" in \d+\.\d+s", " in TIME", kept))


def test_entry_point_is_declared_and_installed() -> None:
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["entry-points"]["pytest11"] == {"leafexplain": PLUGIN}
    assert _installed(), "reinstall the package (pip install -e .) to register its pytest11 entry point"


def test_explain_adds_the_section_to_each_failing_test_with_a_record(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_config=FAILING)
    result = pytester.runpytest_inprocess(*_plugin_args(), "--explain", "-p", "no:cacheprovider")
    result.assert_outcomes(failed=3, passed=1)
    out = result.stdout.str()
    assert len(SECTION_HEADER.findall(out)) == 3, "the two JSON failures, and `assert 2 == 3` by the assert record"
    section = out[SECTION_HEADER.search(out).end() :]
    lines = section.splitlines()
    assert lines[1] == "json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)"
    assert lines[2] == 'matched the Python record "Expecting value: line … column … (char …)", exact wording'
    assert RECORD_SLUG not in section
    meaning, fixes, link = section.index("What it means"), section.index("How to fix it"), section.index("https://")
    assert meaning < fixes < link
    assert "  1. " in section and "  3. " in section and "  4. " not in section[: section.index("More:")]
    assert "https://github.com/python/cpython/blob/" in section
    # the section sits inside the failure it explains, before the next one
    assert (
        out.index("test_parses_config ___") < out.index("leafexplain ---") < out.index("test_parses_another_config _")
    )


def _test_cases(path) -> dict[str, object]:
    import xml.etree.ElementTree as ET

    return {case.get("name"): case for case in ET.parse(path).getroot().iter("testcase")}


def test_junit_xml_carries_the_record_its_link_and_the_short_explanation(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_config=FAILING)
    xml = pytester.path / "report.xml"
    result = pytester.runpytest_inprocess(*_plugin_args(), "--explain", f"--junitxml={xml}", "-p", "no:cacheprovider")
    result.assert_outcomes(failed=3, passed=1)
    cases = _test_cases(xml)
    for name in ("test_parses_config", "test_parses_another_config"):
        properties = {p.get("name"): p.get("value") for p in cases[name].iter("property")}
        assert properties["leafexplain_record"] == "264ef8b11cfe434c"
        assert properties["leafexplain_url"].startswith("https://github.com/python/cpython/blob/")
        [system_out] = [e.text for e in cases[name].iter("system-out")]
        assert system_out.splitlines()[:2] == [
            "json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)",
            'matched the Python record "Expecting value: line … column … (char …)", exact wording',
        ]
        assert "How to fix it" in system_out and "leafexplain show 264ef8b11cfe434c" in system_out
    counts = {p.get("name"): p.get("value") for p in cases["test_counts"].iter("property")}
    assert counts["leafexplain_record"] == "a6b87114d32fb2f5"  # `assert 2 == 3`: the assert statement's record
    assert list(cases["test_passes"].iter("property")) == [] and list(cases["test_passes"].iter("system-out")) == []


def test_junit_xml_keeps_pytests_own_captured_output(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_config='import json\n\ndef test_loads():\n    print("reading")\n    json.loads("")\n')
    xml = pytester.path / "report.xml"
    pytester.runpytest_inprocess(
        *_plugin_args(), "--explain", f"--junitxml={xml}", "-o", "junit_logging=system-out", "-p", "no:cacheprovider"
    )
    outputs = [e.text for e in _test_cases(xml)["test_loads"].iter("system-out")]
    assert len(outputs) == 2
    assert any("reading" in text for text in outputs) and any("What it means" in text for text in outputs)


def test_junit_xml_without_explain_has_no_trace_of_leafexplain(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_config=FAILING)
    xml = pytester.path / "report.xml"
    pytester.runpytest_inprocess(*_plugin_args(), f"--junitxml={xml}", "-p", "no:cacheprovider")
    assert "leafexplain" not in xml.read_text()


def test_ini_option_turns_it_on(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_config=FAILING)
    pytester.makeini("[pytest]\nleafexplain_explain = true\n")
    result = pytester.runpytest_inprocess(*_plugin_args(), "-p", "no:cacheprovider")
    assert len(SECTION_HEADER.findall(result.stdout.str())) == 3


def test_without_the_flag_output_is_unchanged(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_config=FAILING)
    with_plugin = pytester.runpytest_inprocess(*_plugin_args(), "-p", "no:cacheprovider")
    without_plugin = pytester.runpytest_inprocess("-p", "no:leafexplain", "-p", "no:cacheprovider")
    assert "leafexplain" not in _steady(with_plugin.outlines)
    assert _steady(with_plugin.outlines) == _steady(without_plugin.outlines)
    assert with_plugin.ret == without_plugin.ret == 1


def test_records_load_once_per_session_and_only_at_a_failure(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    loads: list[bool] = []
    real = session.load_matcher

    def counting(*args, **kwargs):
        loads.append(True)
        return real(*args, **kwargs)

    monkeypatch.setattr(session, "load_matcher", counting)
    pytester.makepyfile(test_config=FAILING)
    reports = pytester.inline_run(*_plugin_args(), "--explain", "-p", "no:cacheprovider")
    failed = [r for r in reports.getreports("pytest_runtest_logreport") if r.failed]
    shown = [dict(r.sections).get("leafexplain", "").count("show 264ef8b11cfe434c") for r in failed]
    assert shown == [1, 1, 0]
    assert len(loads) == 1
    pytester.makepyfile(test_config="def test_passes():\n    assert True\n")
    pytester.inline_run(*_plugin_args(), "--explain", "-p", "no:cacheprovider")
    pytester.inline_run(*_plugin_args(), "-p", "no:cacheprovider")
    assert len(loads) == 1, "no failure, or not asked: the records are never loaded"


def test_an_internal_error_leaves_the_report_alone(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args, **kwargs):
        raise RuntimeError("records unreadable")

    monkeypatch.setattr(session, "load_matcher", broken)
    pytester.makepyfile(test_config=FAILING)
    reports = pytester.inline_run(*_plugin_args(), "--explain", "-p", "no:cacheprovider")
    failed = [r for r in reports.getreports("pytest_runtest_logreport") if r.failed]
    assert len(failed) == 3
    assert all("leafexplain" not in dict(r.sections) for r in failed)


def test_importing_the_plugin_stays_light() -> None:
    """pytest loads the plugin in every session: it must not pull in the explain machinery."""
    import subprocess

    code = (
        "import leafexplain.integrations.pytest_plugin, sys\n"
        "print(sorted(m for m in sys.modules if m.startswith(('leafexplain', 'rich'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == str(
        [
            "leafexplain",
            "leafexplain.integrations",
            "leafexplain.integrations.pytest_plugin",
            "leafexplain.version",
        ]
    )
