"""The CI recipes stay true (docs/ci.md, and the README's one, which is that page's first): the sample
annotation and step summary are what leafexplain writes, the commands run, and the GitLab code quality
`jq` program turns real output into a valid report."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from leafexplain import session
from leafexplain.integrations.pytest_plugin import RECORD_PROPERTY, URL_PROPERTY
from leafexplain.render.shown import Shown
from leafexplain.render.step_summary import step_summary
from tests.conftest import OUTPUTS, ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")
README_CI_SECTION = README.split("## In CI: GitHub Actions", 1)[1].split("\n## ", 1)[0]
CI_SECTION = (ROOT / "docs" / "ci.md").read_text(encoding="utf-8")
SAMPLE_INPUT = OUTPUTS / "rust" / "cargo-run-backtrace.txt"  # the burn panic printed by `cargo run`
FAILING_SCRIPT = 'import json\n\nprint("loading")\njson.loads("")\n'


def fenced(language: str, section: str = CI_SECTION) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", section, re.DOTALL)


def test_the_sample_annotation_is_what_leafexplain_writes(cli, tmp_path: Path) -> None:
    [sample] = [block for block in fenced("text") if block.startswith("::")]
    result = cli(
        "--format", "github", "--file", str(SAMPLE_INPUT), extra_env={"GITHUB_WORKSPACE": str(tmp_path)}, cwd=tmp_path
    )
    assert result.stdout == sample


def test_the_sample_step_summary_is_what_run_appends(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, bundled_matcher
) -> None:
    [sample] = fenced("markdown")
    monkeypatch.chdir(tmp_path)  # the panic's `./app/src/main.rs` is taken from where cargo ran
    report = session.explain(SAMPLE_INPUT.read_bytes(), bundled_matcher)
    assert step_summary(Shown(report, {"GITHUB_WORKSPACE": str(tmp_path)}), "cargo run", 101) == sample


def test_the_readme_recipe_is_the_first_of_docs_ci() -> None:
    """What is checked below of docs/ci.md's recipes holds for the README's, word for word the same."""
    [recipe] = fenced("yaml", README_CI_SECTION)
    assert fenced("yaml")[0] == recipe


def test_the_junit_sample_names_the_plugins_properties() -> None:
    [sample] = fenced("xml")
    assert f'name="{RECORD_PROPERTY}"' in sample and f'name="{URL_PROPERTY}"' in sample


def test_every_leafexplain_command_of_the_recipes_is_understood(cli) -> None:
    """Each `leafexplain --file test.log --format X` of the recipes, on a real log: no usage error."""
    commands = re.findall(r"leafexplain --file test\.log (--format \w+)", CI_SECTION)
    assert {"--format github", "--format sarif", "--format json"} <= set(commands)
    for option in set(commands):
        result = cli("--file", str(SAMPLE_INPUT), *option.split())
        assert result.returncode == 0, (option, result.stderr)
    assert "leafexplain run -- pytest --explain --junitxml=report.xml" in CI_SECTION
    assert "leafexplain run -- cargo test" in CI_SECTION


@pytest.mark.skipif(shutil.which("jq") is None, reason="jq is not installed (.ci/run installs it)")
def test_the_gitlab_code_quality_program_makes_a_valid_report(cli, tmp_path: Path) -> None:
    [program] = re.findall(r"jq --arg root \"\$CI_PROJECT_DIR/\" '(.*?)' leafexplain\.json", CI_SECTION, re.DOTALL)
    project = tmp_path / "project"
    (project / "pkg").mkdir(parents=True)
    (project / "pkg" / "app.py").write_text(FAILING_SCRIPT)
    failed = subprocess.run([sys.executable, "pkg/app.py"], capture_output=True, text=True, cwd=project)
    log = failed.stderr + SAMPLE_INPUT.read_text() + (OUTPUTS / "rust" / "cargo-run-unknown.txt").read_text()
    document = cli("--format", "json", input=log, cwd=project).stdout
    done = subprocess.run(
        ["jq", "--arg", "root", f"{project}/", program],
        input=document,
        capture_output=True,
        text=True,
        check=True,
    )
    report = json.loads(done.stdout)
    assert len(report) == len(json.loads(document)["events"]) == 3
    for issue in report:
        assert set(issue) == {"description", "check_name", "fingerprint", "severity", "location"}
        assert issue["severity"] in {"info", "minor", "major", "critical", "blocker"}
        assert isinstance(issue["location"]["lines"]["begin"], int)
    assert len({issue["fingerprint"] for issue in report}) == 3
    first, burn, unknown = report
    assert first["location"] == {"path": "pkg/app.py", "lines": {"begin": 4}}
    assert first["check_name"] == "264ef8b11cfe434c" and first["severity"] == "major"
    assert first["description"].startswith("json.decoder.JSONDecodeError: Expecting value")
    assert burn["location"]["path"] == "app/src/main.rs"
    assert (unknown["check_name"], unknown["severity"]) == ("leafexplain/unknown-error", "minor")
