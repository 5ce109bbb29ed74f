"""The configuration files: `[tool.leafexplain]` in the nearest pyproject.toml and the user's config.toml.

Each test is a user of its own (`cli`: HOME's configuration is XDG_CONFIG_HOME under tmp_path), run in-process
from a folder of tmp_path (the current folder is where the nearest pyproject.toml is looked for).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from leafexplain.cli.commands import SHARED
from leafexplain.cli.config import KEYS, settings
from tests.conftest import LEAF, SEED_ID, Isolated

SEED_TEXT = LEAF.read_text()


def project(tmp_path: Path, table: str) -> Path:
    """A project in tmp_path whose pyproject.toml holds `table` under [tool.leafexplain]; its src/ folder, the cwd."""
    (tmp_path / "proj" / "src").mkdir(parents=True)
    (tmp_path / "proj" / "pyproject.toml").write_text(f'[project]\nname = "p"\n\n[tool.leafexplain]\n{table}\n')
    return tmp_path / "proj" / "src"


def user_config(cli: Isolated, text: str) -> Path:
    path = Path(cli.environ["XDG_CONFIG_HOME"]) / "leafexplain" / "config.toml"
    path.parent.mkdir(parents=True)
    path.write_text(text)
    return path


def test_the_keys_are_the_shared_options_long_names() -> None:
    assert KEYS["format"] == "fmt" and KEYS["no-source"] == "no_source" and KEYS["all"] == "show_all"
    assert sorted(KEYS.values()) == sorted(SHARED)


def test_the_projects_format_is_obeyed_and_a_flag_overrides_it(cli: Isolated, tmp_path: Path) -> None:
    cwd = project(tmp_path, 'format = "markdown"')
    configured = cli("--no-source", input=SEED_TEXT, cwd=cwd)
    assert configured.returncode == 0 and configured.stdout.startswith("## panic"), configured.stderr
    flagged = cli("--format", "json", "--no-source", input=SEED_TEXT, cwd=cwd)
    assert json.loads(flagged.stdout)["events"][0]["matches"][0]["id"] == SEED_ID
    # the typer commands read it too: `run` (its explanation on stderr) and `show`
    shown = cli("show", SEED_ID, cwd=cwd)
    assert shown.stdout.startswith("#"), shown.stdout[:80]
    ran = cli("run", "--no-source", "--", sys.executable, "-c", f"print({SEED_TEXT!r})", cwd=cwd)
    assert "## panic" in ran.stderr


def test_the_nearest_pyproject_ends_the_search(cli: Isolated, tmp_path: Path) -> None:
    cwd = project(tmp_path, 'format = "markdown"')
    (cwd / "pyproject.toml").write_text('[project]\nname = "inner"\n')  # nearer, and without the table
    assert not cli("--no-source", input=SEED_TEXT, cwd=cwd).stdout.startswith("## panic")


def test_the_project_over_the_user_and_the_user_alone(cli: Isolated, tmp_path: Path) -> None:
    user_config(cli, 'format = "json"\nno-source = true\n')
    alone = cli(input=SEED_TEXT, cwd=tmp_path)
    assert json.loads(alone.stdout)["schema"] == "leafexplain.explain/1"  # the user's file alone applies
    cwd = project(tmp_path, 'format = "markdown"')
    assert cli(input=SEED_TEXT, cwd=cwd).stdout.startswith("## panic")
    found = settings(cli.environ, str(cwd))
    assert found == {"fmt": "markdown", "no_source": True}


def test_the_environment_beats_a_files_colour_and_width(cli: Isolated, tmp_path: Path) -> None:
    cwd = project(tmp_path, 'color = "never"\nwidth = 60\nformat = "terminal"')
    assert settings(cli.environ, str(cwd)) == {"color": "never", "width": 60, "fmt": "terminal"}
    assert settings({**cli.environ, "FORCE_COLOR": "1", "COLUMNS": "90"}, str(cwd)) == {"fmt": "terminal"}
    forced = cli("--no-source", input=SEED_TEXT, cwd=cwd, extra_env={"FORCE_COLOR": "1"})
    assert "\x1b[" in forced.stdout
    assert "\x1b[" not in cli("--no-source", input=SEED_TEXT, cwd=cwd).stdout


def test_relative_paths_are_the_files_own(cli: Isolated, tmp_path: Path) -> None:
    cwd = project(tmp_path, 'records = "team"\nroot = "."')
    found = settings(cli.environ, str(cwd))
    assert found == {"records": (str(tmp_path / "proj" / "team"),), "root": str(tmp_path / "proj")}
    path = user_config(cli, 'records = ["~/mine", "/abs"]\n')
    home = {**cli.environ, "HOME": str(tmp_path)}
    assert settings(home, str(tmp_path))["records"] == (str(tmp_path / "mine"), "/abs"), path


@pytest.mark.parametrize(
    ("table", "said"),
    [
        ('format = "markdwn"', "[tool.leafexplain] format: 'markdwn' is not one of auto, terminal"),
        ('colour = "always"', "[tool.leafexplain] colour: not a setting (the settings: format, color,"),
        ("width = 5", "[tool.leafexplain] width: 5 is not a whole number from 20 to 1000"),
        ("threshold = nan", "[tool.leafexplain] threshold: nan is not a number from 0 to 100"),
        ('full = "yes"', "[tool.leafexplain] full: must be true or false"),
        ("records = []", "[tool.leafexplain] records: must be a path or a list of paths"),
        ("format = [", "not valid TOML"),
    ],
)
def test_a_bad_key_or_value_is_one_line_naming_the_file_and_exit_2(
    cli: Isolated, tmp_path: Path, table: str, said: str
) -> None:
    cwd = project(tmp_path, table)
    done = cli("--no-source", input=SEED_TEXT, cwd=cwd)
    assert done.returncode == 2 and done.stdout == ""
    (line,) = done.stderr.splitlines()
    assert line.startswith(f"leafexplain: {tmp_path / 'proj' / 'pyproject.toml'}: ") and said in line
    assert cli("list", cwd=cwd).returncode == 2  # every command that takes the shared options reads it
    assert cli("completion", "show", "fish", cwd=cwd).returncode == 0  # the others do not
    assert cli("import", "--help", cwd=cwd).returncode == 0


def test_a_bad_user_file_names_itself(cli: Isolated, tmp_path: Path) -> None:
    path = user_config(cli, "verbose = 1\n")
    done = cli("x", cwd=tmp_path)
    assert done.returncode == 2 and done.stderr == f"leafexplain: {path}: verbose: must be true or false\n"


def test_the_check_commands_keep_their_own_format(cli: Isolated, tmp_path: Path) -> None:
    cwd = project(tmp_path, 'format = "markdown"')
    checked = cli("validate", "--format", "json", str(LEAF.parents[3] / "records" / "tracel-ai"), cwd=cwd)
    assert checked.returncode in (0, 1) and json.loads(checked.stdout) is not None


def test_no_file_and_a_file_without_the_table_import_no_toml_parser(tmp_path: Path) -> None:
    """The everyday path: one failed open per folder, tomllib never imported (tests/test_architecture.py probes
    a whole run from this checkout, whose pyproject.toml has no [tool.leafexplain])."""
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "leafexplain-like"\n[project.scripts]\nleafexplain = "x"\n'
    )
    probe = (
        "import sys; from leafexplain.cli.config import settings; "
        f"print(settings({{'HOME': {str(tmp_path)!r}}}, {str(tmp_path)!r}), 'tomllib' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["{}", "False"]
