"""Where a library raised an error (issue 25) in every format: an error no record explains gets the raising lines,
the library and version and the link in the default view; `--full` the docstring, the condition, the issues search
and the `leafexplain new` command; JSON `raised` on every event; an error a record explains keeps its view."""

from __future__ import annotations

import json

import pytest

from leafexplain.models import Candidate, ErrorEvent, Finding, Frame, Located, Raised, Report
from leafexplain.render import Style, to_text
from leafexplain.render.layout import SCREEN_ROWS
from tests.conftest import as_record, make_record
from tests.render.test_default_view import screen_rows

FRAME = Frame("/venv/lib/python3.11/site-packages/torch/_tensor.py", 691, function="register_hook", code="raise x(")
EVENT = ErrorEvent("python", "RuntimeError", "cannot register a hook", location=FRAME, frames=(FRAME,), user_frame=None)
RAISED = Raised(
    library="torch",
    version="2.13.0+cpu",
    path=FRAME.file,
    line=691,
    start=687,
    lines=(
        '        """',
        "        if has_torch_function_unary(self):",
        "            return handle_torch_function(Tensor.register_hook, (self,), self, hook)",
        "        if not self.requires_grad:",
        "            raise RuntimeError(",
        '                "cannot register a hook on a tensor that doesn\'t require gradient"',
        "            )",
    ),
    function="register_hook",
    docstring="Registers a backward hook.",
    condition="if not self.requires_grad",
    url="https://github.com/pytorch/pytorch/blob/v2.13.0/torch/_tensor.py#L691",
    issues_url="https://github.com/pytorch/pytorch/issues?q=is%3Aissue+cannot+register+a+hook",
    new_command="leafexplain new --repo pytorch/pytorch --commit COMMIT_OF_v2.13.0 --path torch/_tensor.py",
    language="python",
)


def report(raised: Raised | None = RAISED, matched: bool = False) -> Report:
    matches = (Candidate(as_record(make_record(message="cannot register a hook")), 100.0, "regex"),) if matched else ()
    return Report((Finding(EVENT, matches),), 85.0, located=(Located(raised=raised),))


def test_the_default_view_of_an_unknown_error_shows_the_raising_lines_and_the_link() -> None:
    text = to_text(report(), Style(format="plain", width=140))
    assert "raised:  torch 2.13.0+cpu, /venv/lib/python3.11/site-packages/torch/_tensor.py:691 in register_hook" in text
    assert "  690 |         if not self.requires_grad:" in text
    assert "> 691 |             raise RuntimeError(" in text
    assert '  692 |                 "cannot register a hook on a tensor that doesn\'t require gradient"' in text
    assert "689 |" not in text and "693 |" not in text  # the guard, the raise, the message: three lines
    assert f"\n           {RAISED.url}\n" in text
    assert "issues?q=" not in text and "leafexplain new" not in text  # --full's
    assert screen_rows(text, 140) <= SCREEN_ROWS


def test_full_adds_the_docstring_the_condition_the_issues_search_and_the_new_command() -> None:
    text = to_text(report(), Style(format="plain", width=120, full=True))
    for said in ("Raised when: if not self.requires_grad", "register_hook: Registers a backward hook.", RAISED.url):
        assert said in text
    assert RAISED.issues_url in text and RAISED.new_command in text


def test_a_file_that_changed_says_so_and_shows_no_line() -> None:
    changed = RAISED._replace(lines=(), start=0, changed=True, condition=None, docstring=None)
    text = to_text(report(changed), Style(format="plain", width=100))
    assert "the file changed since the run" in text and "691 |" not in text


def test_an_error_a_record_explains_keeps_its_view_and_json_still_has_raised() -> None:
    with_raised = to_text(report(matched=True), Style(format="plain", width=100))
    without = to_text(report(None, matched=True), Style(format="plain", width=100))
    assert with_raised == without
    (event,) = json.loads(to_text(report(matched=True), Style(format="json")))["events"]
    assert event["raised"]["url"] == RAISED.url


@pytest.mark.parametrize("raised", [RAISED, RAISED._replace(path=None, lines=(), start=0, line=None, url=None)])
def test_json_carries_only_what_is_known(raised: Raised) -> None:
    (event,) = json.loads(to_text(report(raised), Style(format="json")))["events"]
    shown = event["raised"]
    assert shown["library"] == "torch" and shown["issues_url"] == RAISED.issues_url
    assert ("lines" in shown) == bool(raised.lines) and ("start" in shown) == bool(raised.lines)
    assert None not in shown.values() and "changed" not in shown


def test_markdown_github_and_sarif_carry_the_link() -> None:
    for fmt in ("markdown", "github", "sarif"):
        assert RAISED.url in to_text(report(), Style(format=fmt)), fmt


def test_no_library_no_rows() -> None:
    assert "raised:" not in to_text(report(None), Style(format="plain", width=100))


@pytest.mark.parametrize("fmt", ["plain", "terminal", "github", "markdown", "json", "sarif", "concise", "jsonl"])
def test_a_class_level_answer_shows_where_a_library_raised_it_and_nothing_when_none_did(cli, tmp_path, fmt) -> None:
    """An error only its class's record explains: the view shows where the library raised it when one did (the
    class says what it means, the raising line what happened). When the error was raised in the user's own code,
    the lookup finds nothing, and every format says nothing of it (it once stopped the run)."""
    mine = tmp_path / "train.py"
    mine.write_text("def step():\n    raise RuntimeError('loss went to nan at step 12')\n\nstep()\n")
    text = (
        "Traceback (most recent call last):\n"
        f'  File "{mine}", line 4, in <module>\n    step()\n'
        f"  File \"{mine}\", line 2, in step\n    raise RuntimeError('loss went to nan at step 12')\n"
        "RuntimeError: loss went to nan at step 12\n"
    )
    done = cli("--format", fmt, "--color", "never", "--root", str(tmp_path), input=text)
    assert done.returncode == 0, done.stderr  # the class's record explains it
    assert "internal error" not in done.stderr and done.stdout


def test_a_class_level_answer_shows_the_raising_line_of_the_library(cli, tmp_path) -> None:
    """A real run: `Fraction('abc')` raises a ValueError in the standard library whose wording no record has; its
    class's record explains it, and the view shows where fractions.py raised it, in place of the class's own
    definition."""
    import subprocess
    import sys

    ran = subprocess.run([sys.executable, "-c", "import fractions; fractions.Fraction('abc')"], capture_output=True)
    done = cli("--format", "plain", "--width", "100", input=ran.stderr.decode())
    assert done.returncode == 0 and "class-level" in done.stdout
    assert "fractions.py:" in done.stdout and "raise ValueError('Invalid literal for Fraction" in done.stdout
    assert "Objects/exceptions.c" not in done.stdout
