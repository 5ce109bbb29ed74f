"""Where a Python error was raised in a library (issue 25): read from a file only when an installed distribution's
RECORD lists it or an installed Python's standard library holds it; what the path says otherwise; never a file
outside a library, a file no RECORD lists, a changed, huge or binary file, or a symlink loop."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from leafexplain.extract import events_in
from leafexplain.libraries import issues_search, message_words, source_link
from leafexplain.locate import raised_python
from leafexplain.locate.files import MAX_FILE_BYTES, LocalPaths
from leafexplain.locate.raised import raised_at
from leafexplain.models import ErrorEvent, Raised
from leafexplain.redact import Redactor
from tests.conftest import Isolated, make_record, write_records

SECRET = "SECRET-MARKER-not-to-be-shown"
MESSAGE = "widget count must be positive, got -3"
LIBRARY_CODE = '''"""widgetlib's core."""


def frobnicate(count):
    """Frobnicate `count` widgets, each in turn.

    The count must be positive: a negative one is refused.
    """
    total = 0
    if count < 0:
        raise WidgetError(
            f"widget count must be positive, got {count}"
        )
    return total
'''
RAISE_LINE = 11  # `raise WidgetError(` above: a class of its own, which no record explains


class Site:
    """A virtual environment's site-packages of the test's own: widgetlib 1.4.2 (Project-URL on github.com),
    installed as pip does (a dist-info with METADATA and a RECORD listing its files), and a fake torch."""

    def __init__(self, tmp: Path) -> None:
        self.site = tmp / "venv" / "lib" / "python3.11" / "site-packages"
        self.package = self.site / "widgetlib"
        self.package.mkdir(parents=True)
        (self.package / "__init__.py").write_text("")
        (self.package / "core.py").write_text(LIBRARY_CODE)
        listed = ["widgetlib/__init__.py", "widgetlib/core.py"]
        self.dist_info("widgetlib", "1.4.2", listed, "Project-URL: Source, https://github.com/acme/widgetlib\n")
        torch = self.site / "torch"
        torch.mkdir()
        (torch / "_tensor.py").write_text(LIBRARY_CODE)
        self.dist_info("torch", "2.13.0+cpu", ["torch/_tensor.py"], "")

    def dist_info(self, name: str, version: str, listed: list[str], headers: str) -> None:
        folder = self.site / f"{name}-{version}.dist-info"
        folder.mkdir()
        metadata = f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n{headers}\nLong description.\n"
        (folder / "METADATA").write_text(metadata)
        self.records = getattr(self, "records", {})
        self.records[name] = folder / "RECORD"
        self.list_in_record(name, *listed)

    def list_in_record(self, name: str, *files: str) -> None:
        record = self.records[name]
        before = record.read_text() if record.exists() else ""
        record.write_text(before + "".join(f"{file},sha256=x,10\n" for file in files))


@pytest.fixture
def site(tmp_path: Path) -> Site:
    raised_python.forget_listings()
    yield Site(tmp_path)
    raised_python.forget_listings()


def traceback(
    file: str | Path, line: int = RAISE_LINE, code: str = "raise WidgetError(", message: str = MESSAGE
) -> str:
    return (
        "Traceback (most recent call last):\n"
        '  File "/home/u/proj/main.py", line 3, in <module>\n'
        "    frobnicate(-3)\n"
        f'  File "{file}", line {line}, in frobnicate\n'
        f"    {code}\n"
        f"widgetlib.core.WidgetError: {message}\n"
    )


def event_of(text: str) -> ErrorEvent:
    (event,) = events_in(text)
    return event


def paths(tmp: Path) -> LocalPaths:
    return LocalPaths(
        roots=(tmp,), cargo_home=str(tmp / "cargo"), rustup_home=str(tmp / "rustup"), stdlib=None, python_version="3"
    )


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every file the lookup reads lines from."""
    seen: list[str] = []
    real = raised_python.read_lines

    def spy(path: str) -> tuple[str, ...] | None:
        seen.append(path)
        return real(path)

    monkeypatch.setattr(raised_python, "read_lines", spy)
    return seen


def test_a_file_its_distribution_lists_is_read(site: Site, tmp_path: Path) -> None:
    raised = raised_at(event_of(traceback(site.package / "core.py")), paths(tmp_path))
    assert raised is not None
    assert (raised.library, raised.version) == ("widgetlib", "1.4.2")
    assert raised.path == str(site.package / "core.py") and raised.line == RAISE_LINE
    assert raised.lines[RAISE_LINE - raised.start].strip() == "raise WidgetError("
    assert raised.function == "frobnicate"
    assert raised.docstring == "Frobnicate `count` widgets, each in turn."
    assert raised.condition == "if count < 0"
    # Its repository from the Project-URL; the layout of widgetlib is not known: its tag, and a note saying so.
    assert raised.url == "https://github.com/acme/widgetlib/tree/v1.4.2"
    assert raised.url_note and "not known" in raised.url_note
    assert raised.issues_url == issues_search("acme/widgetlib", MESSAGE)
    assert raised.issues_url.startswith("https://github.com/acme/widgetlib/issues?q=")
    assert "3" not in raised.issues_url.split("q=", 1)[1].replace("%3A", "")  # the value left out
    assert raised.new_command and "--repo acme/widgetlib" in raised.new_command and "--line 11" in raised.new_command
    assert not raised.changed


def test_a_known_library_links_the_raising_line_at_its_release(site: Site, tmp_path: Path) -> None:
    raised = raised_at(event_of(traceback(site.site / "torch" / "_tensor.py")), paths(tmp_path))
    assert raised is not None and raised.version == "2.13.0+cpu"
    assert raised.url == f"https://github.com/pytorch/pytorch/blob/v2.13.0/torch/_tensor.py#L{RAISE_LINE}"
    assert raised.url_note is None
    assert "git ls-remote https://github.com/pytorch/pytorch refs/tags/v2.13.0" in (raised.new_command or "")


def test_the_layouts_of_the_known_libraries() -> None:
    assert source_link("requests", "psf/requests", "2.31.0", "requests/models.py", 5)[0].endswith(
        "/psf/requests/blob/v2.31.0/requests/models.py#L5"
    )
    assert source_link("requests", "psf/requests", "2.32.3", "requests/models.py", 5)[0].endswith(
        "/psf/requests/blob/v2.32.3/src/requests/models.py#L5"
    )
    assert source_link("scikit-learn", "scikit-learn/scikit-learn", "1.5.2", "sklearn/base.py", 9)[0].endswith(
        "/blob/1.5.2/sklearn/base.py#L9"
    )
    assert source_link("python", "python/cpython", "3.11.7", "json/decoder.py", 353)[0].endswith(
        "/python/cpython/blob/v3.11.7/Lib/json/decoder.py#L353"
    )
    assert message_words("got 'abc' at /a/b.py: shape [2, 3] (x=1) 42 times") == ["got", "at", "shape", "times"]


def test_the_standard_library_of_this_interpreter(tmp_path: Path) -> None:
    ran = subprocess.run([sys.executable, "-c", "import json; json.loads('{bad')"], capture_output=True, text=True)
    event = event_of(ran.stderr)
    raised = raised_at(event, LocalPaths.from_environment(os.environ))
    assert raised is not None and raised.library == "Python"
    assert raised.version == sys.version.split()[0]
    assert raised.path and raised.path.endswith("json/decoder.py")
    frame = event.frames[-1]
    assert raised.line == frame.line and raised.lines[raised.line - raised.start].strip() == frame.code
    assert raised.url == f"https://github.com/python/cpython/blob/v{raised.version}/Lib/json/decoder.py#L{frame.line}"
    assert raised.issues_url and raised.issues_url.startswith("https://github.com/python/cpython/issues?q=")


def test_a_frame_outside_any_library_is_never_opened(site: Site, tmp_path: Path, opened: list[str]) -> None:
    secret = tmp_path / "home" / ".ssh" / "id_rsa"
    secret.parent.mkdir(parents=True)
    secret.write_text(f"{SECRET}\n" * 20)
    for file in (secret, "/etc/shadow", site.site / ".." / ".." / ".." / ".." / "home" / ".ssh" / "id_rsa"):
        assert raised_at(event_of(traceback(file, line=3, code=SECRET)), paths(tmp_path)) is None
    # A path that says site-packages but leads out of it with `..`: named from the path, never read.
    sneaky = f"{site.site}/widgetlib/../../../../home/.ssh/id_rsa.py"
    raised = raised_at(event_of(traceback(sneaky, line=3, code=SECRET)), paths(tmp_path))
    assert raised is None or not raised.lines
    assert opened == []


def test_a_file_no_record_lists_is_not_read(site: Site, tmp_path: Path, opened: list[str]) -> None:
    (site.package / "unlisted.py").write_text(f"# {SECRET}\n" * 20)
    raised = raised_at(event_of(traceback(site.package / "unlisted.py", line=3, code=f"# {SECRET}")), paths(tmp_path))
    assert raised is not None and raised.library == "widgetlib"  # what the path says
    assert (raised.path, raised.version, raised.lines, raised.url) == (None, None, (), None)
    assert opened == []


def test_a_file_that_changed_since_the_run_shows_nothing_of_it(site: Site, tmp_path: Path) -> None:
    raised = raised_at(event_of(traceback(site.package / "core.py", code="raise TypeError(")), paths(tmp_path))
    assert raised is not None and raised.changed
    assert raised.lines == () and raised.condition is None and raised.docstring is None
    assert (raised.library, raised.version) == ("widgetlib", "1.4.2")  # still the installed library


def test_a_huge_or_binary_listed_file_shows_nothing(site: Site, tmp_path: Path) -> None:
    (site.package / "huge.py").write_bytes(b"x = 1\n" * (MAX_FILE_BYTES // 6 + 10))
    (site.package / "binary.py").write_bytes(b"\x00\x01raise ValueError(\n" * 10)
    site.list_in_record("widgetlib", "widgetlib/huge.py", "widgetlib/binary.py")
    for name, code in (("huge.py", "x = 1"), ("binary.py", "raise ValueError(")):
        raised = raised_at(event_of(traceback(site.package / name, line=2, code=code)), paths(tmp_path))
        assert raised is not None and raised.version == "1.4.2"
        assert raised.lines == () and raised.path is None


def test_a_symlink_loop_or_a_listed_symlink_out_of_the_folder_is_not_followed(site: Site, tmp_path: Path) -> None:
    loop = site.package / "loop.py"
    loop.symlink_to(loop)
    secret = tmp_path / "secret.py"
    secret.write_text(f"# {SECRET}\n" * 20)
    (site.package / "out.py").symlink_to(secret)
    site.list_in_record("widgetlib", "widgetlib/loop.py", "widgetlib/out.py")
    for name in ("loop.py", "out.py"):
        raised = raised_at(event_of(traceback(site.package / name, line=3, code=f"# {SECRET}")), paths(tmp_path))
        assert raised is not None and raised.lines == () and raised.path is None


def test_the_lines_read_are_redacted(site: Site, tmp_path: Path) -> None:
    token = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
    (site.package / "core.py").write_text(LIBRARY_CODE.replace("total = 0", f"total = '{token}'"))
    redactor = Redactor()
    raised = raised_at(event_of(traceback(site.package / "core.py")), paths(tmp_path), redactor)
    assert raised is not None and raised.lines
    assert token not in "\n".join(raised.lines)


def test_a_file_not_on_this_machine_is_named_from_its_path(tmp_path: Path) -> None:
    text = traceback("/opt/conda/lib/python3.10/site-packages/torch/nn/functional.py", line=2000, code="x")
    raised = raised_at(event_of(text), paths(tmp_path))
    assert raised == Raised(
        library="torch",
        function="frobnicate",
        language="python",
        issues_url=issues_search("pytorch/pytorch", MESSAGE),
    )


def test_an_error_raised_in_your_own_code_has_no_library(tmp_path: Path) -> None:
    text = 'Traceback (most recent call last):\n  File "/home/u/main.py", line 3, in <module>\n    f()\nValueError: x\n'
    assert raised_at(event_of(text), paths(tmp_path)) is None


# --- every format -------------------------------------------------------------------------------------


def test_every_format_shows_where_the_library_raised_it(site: Site, tmp_path: Path) -> None:
    user = Isolated(tmp_path)
    text = traceback(site.package / "core.py")
    plain = user("--format", "plain", "--width", "100", input=text)
    assert plain.returncode == 1, plain.stderr  # no record: exit codes as before
    assert "raised:  widgetlib 1.4.2" in plain.stdout
    assert "> 11 |     if count < 0:" not in plain.stdout and "> 11 |         raise WidgetError(" in plain.stdout
    assert "10 |     if count < 0:" in plain.stdout
    assert "https://github.com/acme/widgetlib/tree/v1.4.2" in plain.stdout
    full = user("--format", "plain", "--full", "--width", "100", input=text).stdout
    assert "Raised when: if count < 0" in full and "frobnicate: Frobnicate `count` widgets" in full
    assert "https://github.com/acme/widgetlib/issues?q=" in full and "leafexplain new --repo acme/widgetlib" in full
    (event,) = json.loads(user("--format", "json", input=text).stdout)["events"]
    raised = event["raised"]
    assert {
        "library",
        "version",
        "path",
        "line",
        "start",
        "lines",
        "function",
        "docstring",
        "url",
        "issues_url",
    } <= set(raised)
    assert raised["lines"][raised["line"] - raised["start"]].strip() == "raise WidgetError("
    markdown = user("--format", "markdown", input=text).stdout
    assert "**Raised:** widgetlib 1.4.2" in markdown and "<https://github.com/acme/widgetlib/tree/v1.4.2>" in markdown
    github = user("--format", "github", input=text).stdout
    assert "https://github.com/acme/widgetlib/tree/v1.4.2" in github and "Its issues:" in github
    sarif = json.loads(user("--format", "sarif", input=text).stdout)
    (result,) = sarif["runs"][0]["results"]
    assert result["properties"]["raised"]["url"] == "https://github.com/acme/widgetlib/tree/v1.4.2"
    assert "Raised in widgetlib 1.4.2" in result["message"]["text"]


def test_a_path_shown_is_redacted(site: Site, tmp_path: Path) -> None:
    token = "ghp_" + "Z1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
    folder = tmp_path / token
    (tmp_path / "venv").rename(folder)
    raised_python.forget_listings()
    text = traceback(folder / "lib" / "python3.11" / "site-packages" / "widgetlib" / "core.py")
    user = Isolated(tmp_path)
    for fmt in ("plain", "json", "markdown", "github", "sarif"):
        out = user("--format", fmt, "--full", input=text).stdout
        assert token not in out, fmt


def test_a_matched_events_default_view_reads_no_library_file_and_json_does(tmp_path: Path, opened: list[str]) -> None:
    ran = subprocess.run([sys.executable, "-c", "import json; json.loads('{bad')"], capture_output=True, text=True)
    user = Isolated(tmp_path)
    plain = user("--format", "plain", input=ran.stderr)
    assert plain.returncode == 0 and "matched:" in plain.stdout  # a bundled record explains it
    assert opened == [] and "raised:  Python 3" not in plain.stdout  # the record's view, as before
    (event,) = json.loads(user("--format", "json", input=ran.stderr).stdout)["events"]
    assert event["matches"] and event["raised"]["library"] == "Python"
    assert len(opened) == 1 and opened[0].endswith("json/decoder.py")


def test_a_matched_events_raised_holds_no_secret(site: Site, tmp_path: Path) -> None:
    token = "ghp_" + "Y1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
    folder = tmp_path / token
    (tmp_path / "venv").rename(folder)
    raised_python.forget_listings()
    user = Isolated(tmp_path)
    record = make_record(
        message="widget count must be positive, got {n}", errorType="exception", errorClass="WidgetError"
    )
    write_records(user.records, "widget.json", {**record, "errorMessage": MESSAGE, "slug": "widget-count"})
    text = traceback(folder / "lib" / "python3.11" / "site-packages" / "widgetlib" / "core.py")
    done = json.loads(user("--format", "json", input=text).stdout)
    (event,) = done["events"]
    assert event["matches"], "the user's record explains it"
    # The input's path was redacted as it came in: the frame names a file not on this machine, and nothing shows it.
    assert event["raised"]["library"] == "widgetlib" and token not in json.dumps(done)
    assert done["redacted"]
