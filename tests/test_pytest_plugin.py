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


def _installed() -> bool:
    return any(ep.value == "leafexplain.pytest_plugin" for ep in entry_points(group="pytest11"))


def _plugin_args() -> list[str]:
    """The plugin comes through its entry point once the package is installed; until then, by name."""
    return [] if _installed() else ["-p", "leafexplain.pytest_plugin"]


def _steady(lines: list[str]) -> str:
    """pytest's output without what changes between runs (timing, addresses) and the header's list
    of installed plugins, which names every plugin, active or not."""
    kept = "\n".join(line for line in lines if not line.startswith("plugins: "))
    return re.sub(r"0x[0-9a-f]+", "0xADDR", re.sub(r" in \d+\.\d+s", " in TIME", kept))


def test_entry_point_is_declared_and_installed() -> None:
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["entry-points"]["pytest11"] == {"leafexplain": "leafexplain.pytest_plugin"}
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
    assert lines[2] == f"matched python/cpython · {RECORD_SLUG}"
    meaning, fixes, link = section.index("What it means"), section.index("How to fix it"), section.index("https://")
    assert meaning < fixes < link
    assert "  1. " in section and "  3. " in section and "  4. " not in section[: section.index("More:")]
    assert "https://github.com/python/cpython/blob/" in section
    # the section sits inside the failure it explains, before the next one
    assert (
        out.index("test_parses_config ___") < out.index("leafexplain ---") < out.index("test_parses_another_config _")
    )


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
    assert [dict(r.sections).get("leafexplain", "").count(RECORD_SLUG) for r in failed] == [1, 1, 0]
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
        "import leafexplain.pytest_plugin, sys\n"
        "print(sorted(m for m in sys.modules if m.startswith(('leafexplain', 'rich'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == str(
        [
            "leafexplain",
            "leafexplain.integrations",
            "leafexplain.integrations.pytest_plugin",
            "leafexplain.pytest_plugin",
            "leafexplain.version",
        ]
    )
