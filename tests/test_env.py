"""The colour conventions: `--color`, then NO_COLOR, then FORCE_COLOR or CLICOLOR_FORCE, then a terminal."""

from __future__ import annotations

import re
import sys

import pytest

from leafexplain.env import Environment
from tests.conftest import LEAF, Isolated

ESCAPE = re.compile(r"\x1b\[")


@pytest.mark.parametrize(
    ("variables", "tty", "choice", "coloured"),
    [
        ({}, False, "auto", False),
        ({}, True, "auto", True),
        ({"FORCE_COLOR": "1"}, False, "auto", True),
        ({"FORCE_COLOR": "0"}, False, "auto", True),  # force-color.org: any value but the empty string
        ({"FORCE_COLOR": ""}, False, "auto", False),
        ({"CLICOLOR_FORCE": "1"}, False, "auto", True),
        ({"CLICOLOR_FORCE": "0"}, False, "auto", False),
        ({"CLICOLOR_FORCE": "0"}, True, "auto", True),  # says nothing: the terminal decides
        ({"NO_COLOR": "1"}, True, "auto", False),
        ({"NO_COLOR": ""}, True, "auto", True),
        ({"NO_COLOR": "1", "FORCE_COLOR": "1"}, False, "auto", False),  # off wins over on
        ({"NO_COLOR": "1", "CLICOLOR_FORCE": "1"}, True, "auto", False),
        ({"NO_COLOR": "1"}, False, "always", True),  # the flag over every variable
        ({"FORCE_COLOR": "1"}, True, "never", False),
    ],
)
def test_the_colour_decision(variables: dict[str, str], tty: bool, choice: str, coloured: bool) -> None:
    assert Environment(environ=variables, stdout_isatty=tty).use_color(choice) is coloured


@pytest.mark.parametrize("variable", ["FORCE_COLOR", "CLICOLOR_FORCE"])
def test_a_forcing_variable_colours_piped_output(cli: Isolated, variable: str) -> None:
    piped = cli("--no-source", "--file", str(LEAF), extra_env={variable: "1"})
    assert piped.returncode == 0 and ESCAPE.search(piped.stdout), "the terminal format, in colour, on a pipe"
    assert not ESCAPE.search(cli("--no-source", "--file", str(LEAF)).stdout)


def test_no_color_and_the_flag_over_a_forcing_variable(cli: Isolated) -> None:
    both = cli("--no-source", "--file", str(LEAF), extra_env={"FORCE_COLOR": "1", "NO_COLOR": "1"})
    assert not ESCAPE.search(both.stdout)
    never = cli("--color", "never", "--no-source", "--file", str(LEAF), extra_env={"CLICOLOR_FORCE": "1"})
    assert not ESCAPE.search(never.stdout)
    always = cli("--color", "always", "--no-source", "--file", str(LEAF), extra_env={"NO_COLOR": "1"})
    assert ESCAPE.search(always.stdout)


def test_run_explains_in_colour_on_a_piped_stderr_when_forced(cli: Isolated, tmp_path) -> None:
    script = tmp_path / "fail.py"
    script.write_text("raise KeyError('missing')\n")
    ran = cli("run", "--no-source", "--", sys.executable, str(script), extra_env={"FORCE_COLOR": "1"})
    assert ran.returncode == 1 and ESCAPE.search(ran.stderr)
