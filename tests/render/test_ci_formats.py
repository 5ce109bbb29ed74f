"""Where CI and code review look: GitHub annotations, SARIF, and `run`'s annotations and step summary in Actions."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import jsonschema
import pytest
from hypothesis import given
from hypothesis import strategies as st

from leafexplain.render.formats.github import MAX_PER_KIND, escape_data, escape_property
from leafexplain.render.formats.sarif import UNKNOWN_RULE
from tests.conftest import OUTPUTS, Isolated, leafexplain_command

SCHEMA = json.loads((Path(__file__).parents[1] / "data" / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
VALIDATOR = jsonschema.Draft4Validator(SCHEMA)
# `::kind prop=value,prop=value::message`: no property value holds a raw `:` or `,`, no part a line break.
COMMAND = re.compile(r"^::(error|warning|notice)(?: ([^:\r\n]*))?::([^\r\n]*)$")
ESCAPED = re.compile(r"%(25|0D|0A|3A|2C)")
SEED_MESSAGE = "Can't convert a non leaf tensor into a tracked tensor"
JSON_RECORD = "264ef8b11cfe434c"  # CPython's "Expecting value: line 1 column 1 (char 0)"

NO_ERROR = "\n" + "all good, 12 tests passed\n" * 50
FAILING_SCRIPT = """\
import json

print("loading the settings")
settings = json.loads("")
"""


def unescape(text: str) -> str:
    return ESCAPED.sub(lambda m: bytes.fromhex(m.group(1)).decode(), text)


def parse_commands(text: str) -> list[tuple[str, dict[str, str], str]]:
    """Each workflow command as (kind, properties, message), checking the grammar on the way."""
    found = []
    for line in text.splitlines():
        match = COMMAND.match(line)
        assert match, f"not a workflow command: {line!r}"
        properties: dict[str, str] = {}
        for pair in (match.group(2) or "").split(",") if match.group(2) else []:
            name, _, value = pair.partition("=")
            assert name.isalpha() and "=" in pair, pair
            properties[name] = unescape(value)
        found.append((match.group(1), properties, unescape(match.group(3))))
    return found


@pytest.fixture
def failing_run(tmp_path: Path) -> tuple[Path, str]:
    """A workspace with a package whose script fails, and the traceback it printed (absolute paths)."""
    workspace = tmp_path / "workspace"
    (workspace / "pkg").mkdir(parents=True)
    script = workspace / "pkg" / "app.py"
    script.write_text(FAILING_SCRIPT)
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, cwd=workspace)
    assert "JSONDecodeError" in done.stderr
    return workspace, done.stderr


# --- --format github -------------------------------------------------------------------------


def test_an_annotation_at_the_users_frame_relative_to_the_workspace(cli, failing_run) -> None:
    workspace, traceback = failing_run
    result = cli("--format", "github", input=traceback, extra_env={"GITHUB_WORKSPACE": str(workspace)})
    assert result.returncode == 0
    [(kind, properties, message)] = parse_commands(result.stdout)
    assert kind == "error"
    assert properties["file"] == "pkg/app.py"
    assert properties["line"] == properties["endLine"] == "4"
    assert properties["title"] == (
        "json.decoder.JSONDecodeError · python/cpython: expecting-value-line-1-column-1-char-0"
    )
    lines = message.split("\n")
    assert lines[0] == "json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)"
    assert lines[1].startswith("Fix: ")
    assert lines[2].startswith("Where it is raised: https://github.com/python/cpython/blob/")
    assert lines[3] == f"More: leafexplain show {JSON_RECORD}"


def test_without_github_workspace_the_current_folder_is_the_workspace(cli, failing_run) -> None:
    workspace, traceback = failing_run
    [(_, properties, _)] = parse_commands(cli("--format", "github", input=traceback, cwd=workspace / "pkg").stdout)
    assert properties["file"] == "app.py"


def test_a_frame_outside_the_workspace_names_no_file(cli, failing_run, tmp_path: Path) -> None:
    _, traceback = failing_run
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    result = cli("--format", "github", input=traceback, extra_env={"GITHUB_WORKSPACE": str(elsewhere)})
    [(kind, properties, message)] = parse_commands(result.stdout)
    assert kind == "error" and "file" not in properties and "line" not in properties
    assert "At " in message and "pkg/app.py:4" in message


def test_an_error_without_a_record_is_a_warning(cli) -> None:
    result = cli("--format", "github", "--no-source", "--file", str(OUTPUTS / "rust" / "cargo-run-unknown.txt"))
    [(kind, properties, message)] = parse_commands(result.stdout)
    assert result.returncode == 1
    assert kind == "warning"
    assert properties["title"] == "panic (no leafexplain record)"
    assert "no record" in message.lower()


def panics(count: int, message: str, file: str) -> str:
    return "".join(f"thread 'main' panicked at {file}:{line}:5:\n{message} {line}\n\n" for line in range(1, count + 1))


def test_at_most_ten_of_each_kind_and_one_notice_for_the_rest(cli) -> None:
    text = panics(25, SEED_MESSAGE, "src/train.rs") + panics(12, "zorblax frobnication failed in step", "src/b.rs")
    result = cli("--format", "github", "--no-source", input=text)
    commands = parse_commands(result.stdout)
    kinds = [kind for kind, _, _ in commands]
    assert kinds.count("error") == MAX_PER_KIND == 10
    assert kinds.count("warning") == 10
    assert kinds[-1] == "notice" and kinds.count("notice") == 1
    notice = commands[-1][2]
    assert notice.startswith("17 more errors are not annotated (15 explained, 2 without a record)")
    assert [p["line"] for k, p, _ in commands if k == "error"] == [str(n) for n in range(1, 11)]


def test_no_text_can_end_a_command_or_start_another(cli, tmp_path: Path) -> None:
    """A multi-line message with workflow commands, `%` escapes and separators in it, in a folder
    whose name has a comma and a colon: one line per command, and every character comes back."""
    workspace = tmp_path / "we,ird: dir"
    workspace.mkdir()
    script = workspace / "boom.py"
    message = "first line 100%0A done\n::set-env name=PATH::/evil\n::warning file=x.py::fake, with: colon"
    # A class of the script's own: no record explains it, not even one for its class.
    script.write_text(f"class StepFailed(Exception):\n    pass\n\n\nraise StepFailed({message!r})\n")
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, cwd=workspace)
    result = cli("--format", "github", input=done.stderr, extra_env={"GITHUB_WORKSPACE": str(tmp_path)})
    [(kind, properties, body)] = parse_commands(result.stdout)
    assert len(result.stdout.splitlines()) == 1
    assert kind == "warning"
    assert properties["file"] == "we,ird: dir/boom.py"
    assert "we%2Cird%3A dir/boom.py" in result.stdout
    assert body.split("\n")[:3] == [f"StepFailed: {message.splitlines()[0]}", *message.splitlines()[1:]]
    assert "%250A" in result.stdout


@given(st.text())
def test_escaping_round_trips_and_leaves_no_separator(text: str) -> None:
    assert unescape(escape_data(text)) == text
    assert unescape(escape_property(text)) == text
    assert not set(escape_data(text)) & {"\n", "\r"}
    assert not set(escape_property(text)) & {"\n", "\r", ":", ","}


def test_nothing_found_writes_nothing_on_stdout(cli) -> None:
    result = cli("--format", "github", input=NO_ERROR)
    assert result.returncode == 0  # no error is no failure
    assert result.stdout == ""
    assert "no error found" in result.stderr


def test_show_and_list_in_the_github_format_are_plain_text(cli) -> None:
    for args in (["show", JSON_RECORD], ["list", "--repo", "python/cpython"]):
        github = cli(*args, "--format", "github")
        assert github.returncode == 0
        assert github.stdout == cli(*args, "--format", "plain").stdout


# --- --format sarif --------------------------------------------------------------------------

SARIF_INPUTS = [
    OUTPUTS / "rust" / "cargo-run-backtrace.txt",
    OUTPUTS / "rust" / "cargo-test-three.txt",
    OUTPUTS / "rust" / "cargo-run-unknown.txt",
    OUTPUTS / "python" / "json-decode.txt",
    OUTPUTS / "python" / "chain-cause.txt",
    OUTPUTS / "python" / "pytest-long.txt",
]


@pytest.mark.parametrize("path", SARIF_INPUTS, ids=lambda p: p.stem)
def test_sarif_validates_against_the_schema(cli, path: Path) -> None:
    result = cli("--format", "sarif", "--file", str(path))
    log = json.loads(result.stdout)
    VALIDATOR.validate(log)
    assert log["version"] == "2.1.0" and len(log["runs"]) == 1
    assert len(log["runs"][0]["results"]) == len(
        json.loads(cli("--format", "json", "--file", str(path)).stdout)["events"]
    )


def test_sarif_of_nothing_found_is_a_valid_log_without_results(cli) -> None:
    result = cli("--format", "sarif", input=NO_ERROR)
    assert result.returncode == 0
    log = json.loads(result.stdout)
    VALIDATOR.validate(log)
    assert log["runs"][0]["results"] == []


def test_sarif_records_are_rules_and_errors_are_results_at_the_users_frame(cli, failing_run) -> None:
    workspace, traceback = failing_run
    text = traceback + panics(2, "zorblax frobnication failed in step", "src/b.rs")
    result = cli("--format", "sarif", input=text, extra_env={"GITHUB_WORKSPACE": str(workspace)})
    log = json.loads(result.stdout)
    VALIDATOR.validate(log)
    run = log["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules] == [JSON_RECORD, UNKNOWN_RULE]
    record_rule = rules[0]
    assert record_rule["name"] == "expecting-value-line-1-column-1-char-0"
    assert record_rule["shortDescription"]["text"] == "Expecting value: line 1 column 1 (char 0)"
    assert record_rule["fullDescription"]["text"] and record_rule["help"]["text"] and record_rule["help"]["markdown"]
    assert record_rule["helpUri"].startswith("https://github.com/python/cpython/blob/")
    assert run["originalUriBaseIds"]["SRCROOT"]["uri"] == workspace.as_uri() + "/"
    first, *unknown = run["results"]
    assert first["ruleId"] == JSON_RECORD and first["level"] == "error"
    assert first["message"]["text"].startswith("json.decoder.JSONDecodeError: Expecting value")
    location = first["locations"][0]["physicalLocation"]
    assert location["artifactLocation"] == {"uri": "pkg/app.py", "uriBaseId": "SRCROOT"}
    assert location["region"]["startLine"] == 4
    assert first["stacks"][0]["frames"][0]["location"]["physicalLocation"]["artifactLocation"]["uri"] == "pkg/app.py"
    assert [(r["ruleId"], r["level"]) for r in unknown] == [(UNKNOWN_RULE, "warning")] * 2
    for item in run["results"]:
        assert rules[item["ruleIndex"]]["id"] == item["ruleId"]
    assert run["properties"]["redacted"] == {}


def test_sarif_of_show_and_list_is_rules_without_results(cli) -> None:
    for args in (["show", JSON_RECORD], ["list", "--repo", "python/cpython"]):
        log = json.loads(cli(*args, "--format", "sarif").stdout)
        VALIDATOR.validate(log)
        assert log["runs"][0]["results"] == [] and log["runs"][0]["tool"]["driver"]["rules"]
    empty = cli("list", "--repo", "nobody/nothing", "--format", "sarif")
    assert empty.returncode == 1
    VALIDATOR.validate(json.loads(empty.stdout))


# --- `run` in GitHub Actions -----------------------------------------------------------------


def run_in_actions(
    tmp_path: Path, workspace: Path, program: str, *, actions: bool = True, summary: Path | None = None
) -> subprocess.CompletedProcess[str]:
    env = Isolated(tmp_path).environ
    if actions:
        env.update(GITHUB_ACTIONS="true", GITHUB_WORKSPACE=str(workspace))
        env["GITHUB_STEP_SUMMARY"] = str(summary or tmp_path / "summary.md")
    return subprocess.run(
        [*leafexplain_command(), "run", "--", sys.executable, "-c", program],
        capture_output=True,
        text=True,
        env=env,
        cwd=workspace,
        stdin=subprocess.DEVNULL,
        timeout=120,
    )


EXITS_3 = textwrap.dedent(
    """\
    import runpy, sys, traceback
    try:
        runpy.run_path("pkg/app.py")
    except Exception:
        traceback.print_exc()
        sys.exit(3)
    """
)


def test_run_in_actions_annotates_on_stdout_appends_a_summary_and_keeps_the_exit_code(failing_run, tmp_path) -> None:
    workspace, _ = failing_run
    summary = tmp_path / "summary.md"
    summary.write_text("an earlier step's summary\n")
    done = run_in_actions(tmp_path, workspace, EXITS_3)
    assert done.returncode == 3
    assert done.stdout.startswith("loading the settings\n"), "the command's own output comes first, as it is"
    annotations = done.stdout.split("loading the settings\n", 1)[1]
    [(kind, properties, _)] = parse_commands(annotations)
    assert (kind, properties["file"], properties["line"]) == ("error", "pkg/app.py", "4")
    assert "fix:" in done.stderr, "the explanation on stderr stays"
    text = summary.read_text()
    assert text.startswith("an earlier step's summary\n### leafexplain: `")
    assert "exited with 3" in text.splitlines()[1]
    assert "| json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0) | `pkg/app.py:4` |" in text
    assert "**How to fix it**" in text and f"`leafexplain show {JSON_RECORD}`" in text
    run_in_actions(tmp_path, workspace, EXITS_3)
    assert summary.read_text().count("### leafexplain:") == 2, "each run appends"


NO_NEWLINE = textwrap.dedent(
    """\
    import sys
    sys.stdout.write("no newline")
    sys.stdout.flush()
    class StepFailed(Exception):  # the script's own class: no record explains it
        pass
    raise StepFailed("the last line of stdout had no end")
    """
)


def test_every_workflow_command_starts_a_line_after_output_without_a_newline(failing_run, tmp_path) -> None:
    """The runner reads a workflow command only at a line's start: a command whose stdout ends mid-line gets
    the newline before the first annotation, a command whose stdout ends a line gets no blank one."""
    workspace, _ = failing_run
    done = run_in_actions(tmp_path, workspace, NO_NEWLINE)
    assert done.returncode == 1
    assert done.stdout.startswith("no newline\n::warning "), done.stdout
    assert all(line.startswith("::") for line in done.stdout.splitlines()[1:])
    assert all(
        m.start() == 0 or done.stdout[m.start() - 1] == "\n" for m in re.finditer("::(error|warning)", done.stdout)
    )
    [(kind, _, message)] = parse_commands(done.stdout.split("\n", 1)[1])
    assert kind == "warning" and message.startswith("StepFailed: the last line of stdout had no end")
    ended = run_in_actions(tmp_path, workspace, NO_NEWLINE.replace('"no newline"', '"a whole line\\n"'))
    assert ended.stdout.startswith("a whole line\n::warning "), ended.stdout
    silent = run_in_actions(tmp_path, workspace, NO_NEWLINE.replace('"no newline"', '""'))
    assert silent.stdout.startswith("::warning "), silent.stdout


def test_run_outside_actions_writes_no_annotation(failing_run, tmp_path: Path) -> None:
    workspace, _ = failing_run
    done = run_in_actions(tmp_path, workspace, EXITS_3, actions=False)
    assert done.returncode == 3
    assert done.stdout == "loading the settings\n"
    assert not (tmp_path / "summary.md").exists()


def test_a_clean_run_in_actions_adds_nothing(failing_run, tmp_path: Path) -> None:
    workspace, _ = failing_run
    done = run_in_actions(tmp_path, workspace, "print('all good')")
    assert (done.returncode, done.stdout, done.stderr) == (0, "all good\n", "")
    assert not (tmp_path / "summary.md").exists()


def test_a_summary_that_cannot_be_written_costs_a_line_not_the_exit_code(failing_run, tmp_path: Path) -> None:
    workspace, _ = failing_run
    done = run_in_actions(tmp_path, workspace, EXITS_3, summary=tmp_path)  # a folder, not a file
    assert done.returncode == 3
    assert "cannot write the step summary" in done.stderr
    assert "::error " in done.stdout


def test_the_summary_redacts_a_token_in_the_command_line(failing_run, tmp_path: Path) -> None:
    workspace, _ = failing_run
    token = "ghp_" + "k4Lm9NpQ2r" * 4
    done = run_in_actions(tmp_path, workspace, f"# pushing with {token}\n" + EXITS_3)
    assert done.returncode == 3
    heading = (tmp_path / "summary.md").read_text().splitlines()[0]
    assert "ghp_…[redacted]" in heading and token not in heading


def test_every_sarif_result_has_a_location_code_scanning_accepts(cli, tmp_path: Path) -> None:
    # GitHub code scanning refuses the whole file for one result without a location: an error with no frame of the
    # user's lies where it was raised, one with no frame at all at its line of the log it was read from.
    no_user_frame = "thread 'main' panicked at /root/.cargo/registry/src/x/dep-1.0/src/lib.rs:12:5:\nboom in dep\n"
    no_frame = "\n\nKeyError: 'zz'\n"
    log = tmp_path / "ci.log"
    log.write_text(no_user_frame + no_frame, encoding="utf-8")
    result = cli("--format", "sarif", "--file", str(log), extra_env={"GITHUB_WORKSPACE": str(tmp_path)})
    sarif = json.loads(result.stdout)
    VALIDATOR.validate(sarif)
    places = [r["locations"][0]["physicalLocation"] for r in sarif["runs"][0]["results"]]
    assert places[0]["artifactLocation"] == {"uri": "file:///root/.cargo/registry/src/x/dep-1.0/src/lib.rs"}
    assert places[0]["region"]["startLine"] == 12
    assert places[1]["artifactLocation"] == {"uri": "ci.log", "uriBaseId": "SRCROOT"}
    assert places[1]["region"]["startLine"] == 5
    piped = json.loads(cli("--format", "sarif", input=no_frame).stdout)
    assert piped["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"] == {"uri": "stdin"}


def test_a_windows_path_is_never_a_file_of_a_posix_workspace(cli, tmp_path: Path) -> None:
    text = (
        "Traceback (most recent call last):\n"
        '  File "C:\\Users\\bob\\proj\\app\\main.py", line 7, in <module>\n'
        "    data = json.loads(text)\n"
        "json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)\n"
    )
    env = {"GITHUB_WORKSPACE": str(tmp_path)}
    sarif = json.loads(cli("--format", "sarif", input=text, extra_env=env).stdout)
    VALIDATOR.validate(sarif)
    where = sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
    assert where == {"uri": "file:///C:/Users/bob/proj/app/main.py"}
    [(command, properties, _)] = parse_commands(cli("--format", "github", input=text, extra_env=env).stdout)
    assert command == "error" and "file" not in properties


@pytest.mark.parametrize(
    ("file", "root", "inside"),
    [
        ("C:\\Users\\bob\\x.py", "/home/runner/work/r/r", None),
        ("D:\\a\\repo\\repo\\src\\main.py", "D:\\a\\repo\\repo", "src/main.py"),
        ("src\\main.rs", "D:\\a\\repo\\repo", "src/main.rs"),
        ("E:\\other\\x.py", "D:\\a\\repo\\repo", None),
        ("\\\\server\\share\\x.py", "D:\\a\\repo\\repo", None),
    ],
)
def test_windows_paths_are_placed_by_windows_rules(file: str, root: str, inside: str | None) -> None:
    from leafexplain.render.workspace import relative_path

    assert relative_path(file, root) == inside


def test_a_pipe_in_the_command_shows_as_written_in_the_summarys_heading() -> None:
    from leafexplain.models import Report
    from leafexplain.render.shown import Shown
    from leafexplain.render.step_summary import step_summary

    shown = Shown(Report((), 85.0), {"GITHUB_WORKSPACE": "/tmp"})
    heading = step_summary(shown, "sh -c 'cargo test | tee log'", 1).split("\n", 1)[0]
    assert "`sh -c 'cargo test | tee log'`" in heading and "\\|" not in heading
