"""Issue 25's battery: real runs raising inside torch, numpy, pandas, scikit-learn, requests and CPython's standard
library (tools/make_raised_corpus.py), each explained here. Every event names the library and its installed version
and has a search of its issues; the innermost frame's lines are read from the installed file, linked at that
version, and shown by the default view of an error no record explains.

The outputs' paths are those of the environment they ran in. A case runs against those files when they are on this
machine, else against the same library installed in the environment running the tests at the same version (the
frames re-pointed at its site-packages or standard library), and is skipped, saying why, otherwise.
"""

from __future__ import annotations

import importlib.metadata
import json
import os
import platform
import re
from pathlib import Path

import pytest

from leafexplain.libraries import release
from tests.conftest import Isolated

RAISED = Path(__file__).parent / "raised"
MANIFEST = json.loads((RAISED / "manifest.json").read_text(encoding="utf-8"))
_FILE = re.compile(r'^  File "([^"]+)", line (\d+)', re.MULTILINE)


@pytest.fixture(scope="module")
def user(tmp_path_factory: pytest.TempPathFactory) -> Isolated:
    return Isolated(tmp_path_factory.mktemp("raised"))  # one index build for the whole battery


def _installed_here(library: str, version: str) -> str | None:
    """The folder this environment has `library` at `version` in (its site-packages, or the standard library)."""
    if library == "Python":
        return os.path.dirname(os.__file__) if platform.python_version() == version else None
    try:
        found = importlib.metadata.distribution(library)
    except importlib.metadata.PackageNotFoundError:
        return None
    return str(found.locate_file("")) if found.version == version else None


def _runnable(name: str) -> str:
    """The case's output, its frames pointing at files on this machine; the test is skipped when there are none."""
    case = MANIFEST["cases"][name]
    text = (RAISED / f"{name}.txt").read_text(encoding="utf-8")
    innermost = _FILE.findall(text)[-1][0]
    if Path(innermost).is_file():
        return text
    here = _installed_here(case["library"], case["version"])
    if here is None:
        pytest.skip(f"{case['library']} {case['version']} is not installed here (nor the run's own environment)")
    folder = MANIFEST["stdlib"] if case["library"] == "Python" else MANIFEST["site"]
    return text.replace(folder + "/", here.rstrip("/") + "/")


@pytest.mark.parametrize("name", sorted(MANIFEST["cases"]))
def test_every_event_names_its_library_version_and_raising_line(user: Isolated, name: str) -> None:
    case = MANIFEST["cases"][name]
    text = _runnable(name)
    done = user("--format", "json", input=text)
    events = json.loads(done.stdout)["events"]
    assert events, done.stderr
    for event in events:
        raised = event["raised"]
        assert raised and raised.get("library") and raised.get("version"), event["message"]
        assert raised.get("issues_url", "").startswith("https://github.com/")
    last = events[-1]
    raised = last["raised"]
    assert (raised["library"], raised["version"]) == (case["library"], case["version"])
    frame = last["frames"][-1]
    assert raised["path"].endswith("/" + case["tail"]) and raised["line"] == frame["line"]
    code = [line for line in text.split("\n") if line.startswith("    ")]
    raising = raised["lines"][raised["line"] - raised["start"]]
    assert raising.strip() in {c.strip() for c in code}, "the raising line, read from the installed file"
    assert raised["url"].endswith(f"#L{frame['line']}") and f"/{release(case['version'])}/" in raised["url"].replace(
        "/v", "/"
    )
    if not last["matches"]:  # the default view of an error no record explains shows the raising line
        plain = user("--format", "plain", "--width", "120", input=text).stdout
        assert "raised:" in plain and raising.strip() in plain


def test_the_battery_is_the_issues_size() -> None:
    libraries = {case["library"] for case in MANIFEST["cases"].values()}
    assert len(MANIFEST["cases"]) >= 35
    assert libraries == {"torch", "numpy", "pandas", "scikit-learn", "requests", "Python"}
