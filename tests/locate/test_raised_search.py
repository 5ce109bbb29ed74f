"""A bare message found in the installed source of the library it names: a faked site-packages with its dist-info
RECORD (only the files it lists are read), the search's bounds in files and time, and what it never opens."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from leafexplain.extract import events_in
from leafexplain.libraries import issues_search
from leafexplain.locate import raised_search
from leafexplain.locate.files import LocalPaths
from leafexplain.locate.raised import raised_at
from leafexplain.locate.raised_search import (
    literal_runs,
    message_literals,
    named_packages,
    python_function,
    searched_raised,
)
from leafexplain.models import ErrorEvent
from tests.locate.test_raised_rust import searches

# scikit-learn's message, as a bare paste prints it; the files below are stand-ins written for these tests.
NOT_FITTED = (
    "sklearn.exceptions.NotFittedError: This KMeans instance is not fitted yet. Call 'fit' with "
    "appropriate arguments before using this estimator."
)
VALIDATION_PY = '''"""Input validation, as a test stand-in."""

import numbers


def check_is_fitted(
    estimator, attributes=None, *, msg=None
):
    """Check whether the estimator is fitted.

    Raises NotFittedError when it is not.
    """
    if msg is None:
        msg = (
            "This %(name)s instance is not fitted yet. Call 'fit' with "
            "appropriate arguments before using this estimator."
        )
    if not _is_fitted(estimator, attributes):
        raise NotFittedError(msg % {"name": type(estimator).__name__})
'''
VALIDATION_LINE = 15  # the literal holding "with appropriate arguments ..."
EXCEPTIONS_PY = '''"""Exceptions, as a test stand-in."""


class NotFittedError(ValueError, AttributeError):
    """Raised when an estimator is used before fitting.

    >>> NotFittedError("This LinearSVC instance is not fitted yet. Call 'fit' with
    ... appropriate arguments before using this estimator.")
    """
'''
TEST_PY = f"MESSAGE = {NOT_FITTED.split(': ', 1)[1]!r}\n"
METADATA = (
    "Metadata-Version: 2.1\nName: scikit-learn\nVersion: 1.5.2\n"
    "Project-URL: Homepage, https://scikit-learn.org\nProject-URL: Source, https://github.com/scikit-learn/scikit-learn\n"
    "\nThe long description.\nProject-URL: Source, https://github.com/evil/elsewhere\n"
)
LISTED = [
    "sklearn/__init__.py",
    "sklearn/exceptions.py",
    "sklearn/tests/test_validation.py",
    "sklearn/utils/validation.py",
]


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def fake_site(tmp: Path, listed: list[str] = LISTED, extra: dict[str, str] | None = None) -> Path:
    """A site-packages holding a stand-in scikit-learn: its files, its METADATA and a RECORD listing `listed`."""
    site = tmp.resolve() / "lib" / "python3.11" / "site-packages"
    for rel, text in {
        "sklearn/__init__.py": '"""A stand-in."""\n',
        "sklearn/exceptions.py": EXCEPTIONS_PY,
        "sklearn/tests/test_validation.py": TEST_PY,
        "sklearn/utils/validation.py": VALIDATION_PY,
        **(extra or {}),
    }.items():
        write(site / rel, text)
    info = site / "scikit_learn-1.5.2.dist-info"
    write(info / "METADATA", METADATA)
    rows = [f"{rel},sha256=x,1" for rel in listed] + ["scikit_learn-1.5.2.dist-info/RECORD,,"]
    write(info / "RECORD", "\n".join(rows) + "\n")
    write(site / "other_dist-0.1.dist-info" / "RECORD", "other/__init__.py,,\n")
    return site


def bare(text: str) -> ErrorEvent:
    (event,) = events_in(text, typed=True)
    assert event.frames == () and event.location is None
    return event


@pytest.fixture
def paths(tmp_path: Path) -> LocalPaths:
    return LocalPaths(roots=(str(tmp_path),), cargo_home="", rustup_home="", stdlib=None, python_version="Python 3")


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every source file the search opens."""
    seen: list[str] = []
    real_open = raised_search.open_resolved

    def spy(path: str, **kwargs):
        seen.append(path)
        return real_open(path, **kwargs)

    monkeypatch.setattr(raised_search, "open_resolved", spy)
    return seen


def test_the_named_librarys_source_gives_the_raising_lines(tmp_path: Path, paths: LocalPaths, opened) -> None:
    site = fake_site(tmp_path)
    raised = searched_raised(bare(NOT_FITTED), paths, sites=[str(site)])
    assert raised is not None
    assert (raised.library, raised.version, raised.language) == ("scikit-learn", "1.5.2", "python")
    assert raised.path == str(site / "sklearn" / "utils" / "validation.py")
    assert (raised.line, raised.start) == (VALIDATION_LINE, VALIDATION_LINE - 3)
    assert raised.lines == tuple(VALIDATION_PY.splitlines()[VALIDATION_LINE - 4 : VALIDATION_LINE + 3])
    assert raised.function == "check_is_fitted"
    assert raised.docstring == "Check whether the estimator is fitted."
    assert raised.condition == "if msg is None"
    assert searches(
        raised.issues_url,
        "scikit-learn/scikit-learn",
        "This KMeans instance is not fitted yet Call with",
        absent="'fit'",
    )
    # The docstring's example and the package's tests hold the words too: not where it raises, so the tests are
    # not even opened.
    assert str(site / "sklearn" / "tests" / "test_validation.py") not in opened


def test_the_dispatcher_searches_this_interpreters_site_packages_for_a_bare_message(
    tmp_path: Path, paths: LocalPaths, monkeypatch: pytest.MonkeyPatch
) -> None:
    site = fake_site(tmp_path)
    monkeypatch.setattr(sys, "path", [str(site), *sys.path])
    raised = raised_at(bare(NOT_FITTED), paths)
    assert raised is not None and raised.path == str(site / "sklearn" / "utils" / "validation.py")


def test_only_the_files_record_lists_inside_site_packages_are_read(tmp_path: Path, paths: LocalPaths, opened) -> None:
    outside = write(tmp_path / "outside.py", VALIDATION_PY)
    site = fake_site(
        tmp_path,
        listed=["../../../outside.py", "sklearn/linked.py", "sklearn/exceptions.py"],
        extra={"sklearn/unlisted.py": VALIDATION_PY},
    )
    (site / "sklearn" / "linked.py").symlink_to(outside)
    (site / "sklearn" / "folder").symlink_to(outside.parent)  # a folder linked out of site-packages
    rows = (site / "scikit_learn-1.5.2.dist-info" / "RECORD").read_text() + "sklearn/folder/outside.py,,\n"
    write(site / "scikit_learn-1.5.2.dist-info" / "RECORD", rows)
    assert searched_raised(bare(NOT_FITTED), paths, sites=[str(site)]) is None  # what it holds was never read
    assert str(outside) not in opened and str(site / "sklearn" / "unlisted.py") not in opened
    assert all(path.startswith(str(site) + "/sklearn/") for path in opened)


def test_a_huge_a_binary_file_or_a_fifo_is_not_read(tmp_path: Path, paths: LocalPaths) -> None:
    literal = '    raise NotFittedError("with appropriate arguments before using this estimator.")\n'
    extra = {"sklearn/huge.py": "# padding\n" * 250_000 + literal, "sklearn/binary.py": "\0" + literal}
    site = fake_site(tmp_path, listed=["sklearn/huge.py", "sklearn/binary.py", "sklearn/fifo.py"], extra=extra)
    os.mkfifo(site / "sklearn" / "fifo.py")
    assert searched_raised(bare(NOT_FITTED), paths, sites=[str(site)]) is None


def test_the_search_is_bounded_in_files_and_time(tmp_path: Path, paths: LocalPaths, opened) -> None:
    site = fake_site(tmp_path)
    event = bare(NOT_FITTED)
    assert searched_raised(event, paths, sites=[str(site)], max_files=2) is None
    assert len(opened) == 2  # __init__.py and exceptions.py: validation.py is past the bound
    opened.clear()
    assert searched_raised(event, paths, sites=[str(site)], max_seconds=0) is None
    assert opened == []


def test_no_library_named_or_installed_and_too_short_a_literal_find_nothing(tmp_path: Path, paths: LocalPaths) -> None:
    sites = [str(fake_site(tmp_path))]
    assert searched_raised(bare(NOT_FITTED.replace("sklearn.", "notinstalled.")), paths, sites=sites) is None
    assert searched_raised(bare(NOT_FITTED.replace("sklearn.exceptions.", "")), paths, sites=sites) is None
    assert searched_raised(bare("sklearn.exceptions.NotFittedError: not fitted"), paths, sites=sites) is None
    assert searched_raised(bare(NOT_FITTED), paths, sites=[str(tmp_path / "nowhere")]) is None


def test_an_import_on_the_same_screen_names_the_library_of_a_message_with_no_class_path(
    tmp_path: Path, paths: LocalPaths
) -> None:
    """A session pasted whole: the message names its class alone (`NotFittedError`), but the lines above import
    the library, so its installed source is searched (numpy's import first: not installed there, nothing found)."""
    site = fake_site(tmp_path)
    session = (
        ">>> import numpy as np\n>>> from sklearn.cluster import KMeans\n>>> KMeans().predict(np.zeros((2, 2)))\n"
        + NOT_FITTED.replace("sklearn.exceptions.", "")
        + "\n"
    )
    (event,) = [e for e in events_in(session) if e.error_type == "NotFittedError"]
    assert event.imports == ("numpy", "sklearn")
    raised = searched_raised(event, paths, sites=[str(site)])
    assert raised is not None and raised.library == "scikit-learn"
    assert raised.path == str(site / "sklearn" / "utils" / "validation.py")
    # The same message with no import around it names no library.
    assert searched_raised(bare(NOT_FITTED.replace("sklearn.exceptions.", "")), paths, sites=[str(site)]) is None


def test_a_site_packages_path_in_the_message_names_its_package(tmp_path: Path, paths: LocalPaths) -> None:
    site = fake_site(
        tmp_path, extra={"sklearn/io.py": 'def load(p):\n    raise OSError("cannot read the model file at all")\n'}
    )
    rows = (site / "scikit_learn-1.5.2.dist-info" / "RECORD").read_text() + "sklearn/io.py,,\n"
    write(site / "scikit_learn-1.5.2.dist-info" / "RECORD", rows)
    event = bare("OSError: cannot read the model file at all: /opt/venv/lib/python3.11/site-packages/sklearn/model.bin")
    assert named_packages(event) == ["sklearn"]
    raised = searched_raised(event, paths, sites=[str(site)])
    assert raised is not None and raised.path == str(site / "sklearn" / "io.py") and raised.function == "load"
    assert raised.line == 2 and raised.condition is None and raised.docstring is None


def test_the_literal_part_leaves_the_values_out() -> None:
    assert literal_runs("index out of bounds: the len is 3 but the index is 5") == [
        ["index", "out", "of", "bounds:", "the", "len", "is"],
        ["but", "the", "index", "is"],
    ]
    assert literal_runs("called `Result::unwrap()` on an `Err` value: Os { code: 2, kind: NotFound }") == [
        ["called", "Result::unwrap()", "on", "an", "Err", "value:", "Os"]
    ]
    assert message_literals(NOT_FITTED.split(": ", 1)[1])[0] == [
        "with",
        "appropriate",
        "arguments",
        "before",
        "using",
        "this",
        "estimator.",
    ]
    assert message_literals("Expected 2D array, got 1D") == []
    assert (
        issues_search("a/b", "key 'x' doesn't exist")
        == "https://github.com/a/b/issues?q=is%3Aissue+key+doesn%27t+exist"
    )
    assert issues_search(None, "key missing") is None


def test_python_function_reads_the_enclosing_def_and_its_docstrings_first_paragraph() -> None:
    lines = tuple(VALIDATION_PY.splitlines())
    assert python_function(lines, VALIDATION_LINE) == ("check_is_fitted", "Check whether the estimator is fitted.")
    assert python_function(lines, 3) == (None, None)
    one_line = ("class A:", "    def f(self):", "    \t'''Do it.'''", "        raise ValueError('x')")
    assert python_function(one_line, 4) == ("f", "Do it.")


def test_a_one_module_distribution_is_searched_too(tmp_path: Path, paths: LocalPaths) -> None:
    site = tmp_path.resolve() / "site-packages"
    write(site / "widget.py", 'def spin():\n    """Spin."""\n    raise WidgetError("the widget refused to spin up")\n')
    write(site / "widget-1.0.dist-info" / "RECORD", "widget.py,sha256=x,1\nwidget-1.0.dist-info/RECORD,,\n")
    raised = searched_raised(bare("widget.WidgetError: the widget refused to spin up"), paths, sites=[str(site)])
    assert raised is not None and (raised.library, raised.version, raised.line) == ("widget", "1.0", 3)
    assert (raised.function, raised.docstring, raised.issues_url) == ("spin", "Spin.", None)


def test_a_literal_joined_from_an_f_string_is_found(tmp_path: Path, paths: LocalPaths) -> None:
    merge = (
        "def validate(left_on, right_on):\n"
        "    if not left_on:\n"
        "        raise MergeError(\n"
        '            "No common columns to perform merge on. "\n'
        '            f"Merge options: left_on={left_on}, "\n'
        '            f"right_on={right_on}"\n'
        "        )\n"
    )
    site = fake_site(tmp_path, listed=[*LISTED, "sklearn/merge.py"], extra={"sklearn/merge.py": merge})
    message = "sklearn.MergeError: No common columns to perform merge on. Merge options: left_on=None, right_on=None"
    raised = searched_raised(bare(message), paths, sites=[str(site)])
    assert raised is not None and raised.path == str(site / "sklearn" / "merge.py")
    assert (raised.line, raised.function, raised.condition) == (4, "validate", "if not left_on")


# Real messages of real libraries, searched for in the ones installed beside leafexplain (skipped when one is not):
# the file that raises each, as of scikit-learn 1.9, pandas 3.1, requests 2.34 and numpy 2.4.
REAL = [
    (NOT_FITTED, "scikit-learn", "sklearn/utils/validation.py"),
    (
        "pandas.errors.MergeError: No common columns to perform merge on. Merge options: left_on=None, "
        "right_on=None, left_index=False, right_index=False",
        "pandas",
        "pandas/core/reshape/merge.py",
    ),
    (
        "requests.exceptions.InvalidSchema: No connection adapters were found for 'htp://example.com'",
        "requests",
        "requests/sessions.py",
    ),
    (
        "requests.exceptions.MissingSchema: Invalid URL 'example.com': No scheme supplied. Perhaps you meant "
        "https://example.com?",
        "requests",
        "requests/models.py",
    ),
    ("numpy.linalg.LinAlgError: Singular matrix", "numpy", "numpy/linalg/_linalg.py"),
]


@pytest.mark.parametrize(("message", "distribution", "file"), REAL, ids=[r[2] for r in REAL])
def test_real_libraries_installed_here(paths: LocalPaths, message: str, distribution: str, file: str) -> None:
    from importlib import metadata
    from importlib.util import find_spec

    top = file.split("/")[0]
    if find_spec(top) is None:
        pytest.skip(f"{distribution} is not installed beside leafexplain (pip install {distribution})")
    raised = searched_raised(bare(message), paths)
    assert raised is not None and raised.path is not None and raised.line is not None
    assert (raised.library, raised.version) == (distribution, metadata.version(distribution))
    if not raised.path.endswith(file):
        pytest.skip(f"{distribution} {raised.version} raises it elsewhere than {file}: {raised.path}")
    shown = raised.lines[raised.line - raised.start]
    assert any(word in shown for word in ("fit", "merge", "adapters", "scheme", "Singular"))
    assert raised.issues_url is not None and raised.issues_url.startswith("https://github.com/")
