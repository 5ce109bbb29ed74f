"""The man page: written from the command table, committed as man/leafexplain.1, and current."""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest

from leafexplain.cli.commands import COMMANDS, SHARED
from leafexplain.cli.manpage import manpage
from leafexplain.exitcodes import MEANINGS
from tests.conftest import ROOT

PAGE = ROOT / "man" / "leafexplain.1"
SECTIONS = ("NAME", "SYNOPSIS", "DESCRIPTION", "COMMANDS", "OPTIONS", "EXIT STATUS", "ENVIRONMENT", "FILES", "EXAMPLES")


def test_the_committed_page_is_what_the_table_writes_now() -> None:
    """After a change to the commands or options: `python -m leafexplain.cli.manpage > man/leafexplain.1`."""
    assert PAGE.read_text(encoding="utf-8") == manpage()


def test_it_has_the_sections_people_look_for_and_every_option_and_code() -> None:
    page = manpage()
    assert [line[4:].strip('"') for line in page.splitlines() if line.startswith(".SH ")][: len(SECTIONS)] == list(
        SECTIONS
    )
    for row in SHARED.values():
        assert f"\\fB{row['flags'][0].replace('-', chr(92) + '-')}\\fR" in page
    for name, command in COMMANDS.items():
        assert (f"\\fB{name.replace('-', chr(92) + '-')}\\fR" in page) != bool(command.get("hidden"))
    for code in MEANINGS:
        assert f"\n\\fB{code}\\fR\n" in page
    for variable in ("NO_COLOR", "FORCE_COLOR", "CLICOLOR_FORCE", "LEAFEXPLAIN_RECORDS", "XDG_CONFIG_HOME"):
        assert f"\\fB{variable}\\fR" in page


@pytest.mark.parametrize("renderer", ["man", "groff"])
def test_it_renders_without_a_warning(renderer: str) -> None:
    if shutil.which(renderer) is None:
        pytest.skip(f"{renderer} is not installed")
    command = ["man", "-l", "-Tutf8", str(PAGE)] if renderer == "man" else ["groff", "-man", "-Tutf8", "-ww", str(PAGE)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60, env={**os.environ, "MANWIDTH": "80"})
    assert done.returncode == 0 and done.stderr == "", done.stderr
    shown = _plain(done.stdout)
    assert "leafexplain - explain Rust panics and Python tracebacks" in shown
    assert "\nEXIT STATUS\n" in shown and "       101" not in shown and "       141    stdout was closed" in shown


def _plain(text: str) -> str:
    """Overstruck text (`c\\bc` for bold, `_\\bc` for underline) as it reads."""
    out: list[str] = []
    for ch in text:
        if ch == "\b":
            if out:
                out.pop()
            continue
        out.append(ch)
    return "".join(out)
