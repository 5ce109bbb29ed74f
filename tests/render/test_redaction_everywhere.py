"""Every path leafexplain builds itself is redacted once, in every format, and counted (issue 28, round 3, items 2, 11).

The input is redacted as it is read; what an output adds of its own comes from this machine: the
`--file` path, the workspace (`GITHUB_WORKSPACE`) or the current folder, the resolved path of your
code, a frame's path made relative or absolute, `run`'s command line. Here each of them holds a made-up
token shape (a folder named `ghp_…`, or `password=…`), built from pieces at run time so that no
scanner takes this file for a leak.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import jsonschema
import pytest

from tests.conftest import Isolated, leafexplain_command
from tests.test_redact import OUTPUTS as FORMATS

TOKEN_BODY = "x9Y8w7V6u5" * 4
TOKEN = "ghp_" + TOKEN_BODY
PASSWORD_BODY = "Qm9zY2gx7Kd2Lp0a"
PASSWORD = "password=" + PASSWORD_BODY
SCHEMA = json.loads((Path(__file__).parents[1] / "data" / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
VALIDATOR = jsonschema.Draft4Validator(SCHEMA)

MAIN_RS = "fn main() {\n    let v: Vec<i32> = Vec::new();\n    v[3];\n}\n"
# A panic naming your code relative to where cargo ran: its resolved path is built here, from the current folder.
PANIC = (
    "thread 'main' panicked at src/main.rs:3:5:\n"
    "index out of bounds: the len is 0 but the index is 3\n"
    "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n"
)
OUTPUTS = {  # every format, as tests/test_redact.py checks them, and the long view of each that has one
    **FORMATS,
    "terminal-full": ["--format", "terminal", "--color", "never", "--full"],
    "plain-full": ["--format", "plain", "--full"],
    "markdown-full": ["--format", "markdown", "--full"],
    "json-full": ["--format", "json", "--full"],
}


def project(tmp_path: Path, folder: str) -> Path:
    """A cargo project in a folder named `folder`, with the panic's log beside its code."""
    root = tmp_path / "work" / folder
    (root / "src").mkdir(parents=True)
    (root / "src" / "main.rs").write_text(MAIN_RS, encoding="utf-8")
    (root / "panic.log").write_text(PANIC, encoding="utf-8")
    return root


def explained(cli: Isolated, root: Path, args: list[str], **environ: str) -> subprocess.CompletedProcess[str]:
    """The log explained from the project's folder, the workspace there (unless `environ` says otherwise)."""
    return cli(
        *args,
        "--file",
        str(root / "panic.log"),
        cwd=root,
        extra_env={"GITHUB_WORKSPACE": str(root), "COLUMNS": "400", **environ},  # wide: no path folded in two
    )


def nothing_of(secret: str, result: subprocess.CompletedProcess[str]) -> None:
    assert secret not in result.stdout, result.stdout
    assert secret not in result.stderr
    # Nor encoded on the way out: a URI's percent-encoding, Markdown's escapes, a workflow command's.
    for encoded in (secret.replace("=", "%3D"), secret.replace("_", "\\_")):
        assert encoded not in result.stdout


@pytest.mark.parametrize("output", sorted(OUTPUTS))
def test_a_token_in_the_folder_of_your_code_the_workspace_and_the_file_is_never_shown(
    output: str, cli: Isolated, tmp_path: Path
) -> None:
    root = project(tmp_path, TOKEN)
    result = explained(cli, root, OUTPUTS[output])
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip()
    nothing_of(TOKEN_BODY, result)
    if output == "jsonl":  # no envelope, so no counts: the path in the event's line is redacted
        snippet = json.loads(result.stdout.splitlines()[0])["user_snippet"]
        assert snippet["path"] == str(root / "src" / "main.rs").replace(TOKEN, "ghp_…[redacted]")
    if output.startswith("json") and output != "jsonl":
        document = json.loads(result.stdout)
        # One folder, named by the workspace, the current folder, the file and your code's path: one secret.
        assert document["redacted"] == {"github-token": 1}
        snippet = document["events"][0]["user_snippet"]
        assert snippet["path"] == str(root / "src" / "main.rs").replace(TOKEN, "ghp_…[redacted]")
        assert any("v[3];" in line for line in snippet["lines"]), "your code is still found and shown"
    if output == "sarif":
        run = json.loads(result.stdout)["runs"][0]
        assert run["properties"]["redacted"] == {"github-token": 1}
        assert "ghp_%E2%80%A6%5Bredacted%5D" in run["originalUriBaseIds"]["SRCROOT"]["uri"]
        location = run["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
        assert location == {"uri": "src/main.rs", "uriBaseId": "SRCROOT"}, "still placed in the workspace"
    if output == "markdown-full":
        assert "ghp\\_…\\[redacted\\]" in result.stdout


@pytest.mark.parametrize("output", ["plain-full", "json", "sarif", "github"])
def test_a_password_in_a_folder_name_is_never_shown(output: str, cli: Isolated, tmp_path: Path) -> None:
    root = project(tmp_path, PASSWORD)
    result = explained(cli, root, OUTPUTS[output])
    assert result.returncode == 0, result.stderr
    nothing_of(PASSWORD_BODY, result)
    if output == "json":
        assert "credential-field" in json.loads(result.stdout)["redacted"]
    if output == "sarif":
        assert "credential-field" in json.loads(result.stdout)["runs"][0]["properties"]["redacted"]


def test_your_code_below_the_workspace_in_a_secret_folder_is_annotated_redacted(cli: Isolated, tmp_path: Path) -> None:
    """The annotation's `file` is your code's path relative to the workspace: the token's folder lies between."""
    root = project(tmp_path, TOKEN)
    for args in (["--format", "github"], ["--format", "sarif"]):
        result = explained(cli, root, args, GITHUB_WORKSPACE=str(root.parent))
        nothing_of(TOKEN_BODY, result)
    annotation = explained(cli, root, ["--format", "github"], GITHUB_WORKSPACE=str(root.parent)).stdout
    assert annotation.startswith("::error file=ghp_…[redacted]/src/main.rs,line=3,")


def test_the_file_of_an_error_without_a_frame_is_redacted_in_sarif(cli: Isolated, tmp_path: Path) -> None:
    """An error with no frame lies at its line of the log: the `--file` path, outside the workspace here."""
    log = tmp_path / TOKEN / "ci.log"
    log.parent.mkdir()
    log.write_text("\n\nKeyError: 'zz'\n", encoding="utf-8")
    workspace = tmp_path / "elsewhere"
    workspace.mkdir()
    result = cli("--format", "sarif", "--file", str(log), extra_env={"GITHUB_WORKSPACE": str(workspace)})
    nothing_of(TOKEN_BODY, result)
    sarif = json.loads(result.stdout)
    VALIDATOR.validate(sarif)
    run = sarif["runs"][0]
    where = run["results"][0]["locations"][0]["physicalLocation"]
    assert where["artifactLocation"]["uri"].startswith("file:///") and "redacted" in where["artifactLocation"]["uri"]
    assert where["region"]["startLine"] == 3
    assert run["properties"]["redacted"] == {"github-token": 1}


def test_no_redact_keeps_every_path_as_it_came(cli: Isolated, tmp_path: Path) -> None:
    root = project(tmp_path, TOKEN)
    document = json.loads(explained(cli, root, ["--format", "json", "--no-redact"]).stdout)
    assert document["redacted"] is None
    assert document["events"][0]["user_snippet"]["path"] == str(root / "src" / "main.rs")
    run = json.loads(explained(cli, root, ["--format", "sarif", "--no-redact"]).stdout)["runs"][0]
    assert run["properties"]["redacted"] is None
    assert TOKEN in run["originalUriBaseIds"]["SRCROOT"]["uri"]
    assert TOKEN in explained(cli, root, ["--format", "plain", "--full", "--no-redact"]).stdout


def test_sarif_of_show_and_list_redacts_the_workspace(cli: Isolated, tmp_path: Path) -> None:
    workspace = tmp_path / TOKEN
    workspace.mkdir()
    result = cli("list", "--format", "sarif", extra_env={"GITHUB_WORKSPACE": str(workspace)})
    nothing_of(TOKEN_BODY, result)
    assert "ghp_%E2%80%A6%5Bredacted%5D" in json.loads(result.stdout)["runs"][0]["originalUriBaseIds"]["SRCROOT"]["uri"]


def test_runs_step_summary_redacts_the_paths_and_the_command_and_counts_them(tmp_path: Path) -> None:
    """`run` in Actions: the annotation and the step summary share one Shown. The command is run from a folder
    named after a token below the workspace, and its traceback names `pkg/app.py` from there: the path relative
    to the workspace is built here. That token and the one in the command line are counted once each."""
    workspace = tmp_path / "work"
    code = workspace / TOKEN / "pkg"
    code.mkdir(parents=True)
    (code / "app.py").write_text('import json\nprint("loading")\nsettings = json.loads("")\n', encoding="utf-8")
    environ = Isolated(tmp_path).environ
    environ.update(GITHUB_ACTIONS="true", GITHUB_WORKSPACE=str(workspace), GITHUB_STEP_SUMMARY=str(tmp_path / "s.md"))
    other = "ghp_" + "k4Lm9NpQ2r" * 4
    program = f"# pushing with {other}\nimport runpy\nrunpy.run_path('pkg/app.py')\n"
    done = subprocess.run(
        [*leafexplain_command(), "run", "--", sys.executable, "-c", program],
        capture_output=True,
        text=True,
        env=environ,
        cwd=workspace / TOKEN,
        stdin=subprocess.DEVNULL,
        timeout=120,
    )
    assert done.returncode == 1, done.stderr
    annotations = [line for line in done.stdout.splitlines() if line.startswith("::")]
    assert annotations and not any(TOKEN_BODY in line for line in annotations)
    summary = (tmp_path / "s.md").read_text(encoding="utf-8")
    assert TOKEN_BODY not in summary and "k4Lm9NpQ2r" not in summary
    assert "| `ghp_…[redacted]/pkg/app.py:3` |" in summary
    assert "2 secrets redacted (github-token 2)" in summary, summary


# --- item 11: a frame's path that climbs out of the workspace ------------------------------------


def artifact_locations(value: object) -> list[dict[str, str]]:
    """Every artifactLocation in a SARIF log, wherever it stands."""
    found: list[dict[str, str]] = []
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "artifactLocation":
                found.append(item)
            else:
                found += artifact_locations(item)
    elif isinstance(value, list):
        for item in value:
            found += artifact_locations(item)
    return found


def placeable(location: dict[str, str], bases: dict[str, dict[str, str]]) -> bool:
    """Code scanning can place it: an absolute URI, or one relative to a base the run names, inside that base."""
    uri = location["uri"]
    if urlsplit(uri).scheme:
        return uri.startswith("file:///") or uri.startswith("file://")
    return location.get("uriBaseId") in bases and not uri.startswith(("../", "/")) and "/../" not in uri


def test_a_frame_climbing_out_with_dot_dots_is_an_absolute_file_uri(cli: Isolated, tmp_path: Path) -> None:
    traceback = (
        "Traceback (most recent call last):\n"
        '  File "pkg/app.py", line 3, in <module>\n'
        "    main()\n"
        '  File "../../../../etc/passwd.py", line 1, in main\n'
        "    raise RuntimeError('zorblax frobnication failed')\n"
        "RuntimeError: zorblax frobnication failed\n"
    )
    workspace = tmp_path / "a" / "b" / "c" / "d"
    (workspace / "pkg").mkdir(parents=True)
    result = cli("--format", "sarif", input=traceback, cwd=workspace, extra_env={"GITHUB_WORKSPACE": str(workspace)})
    sarif = json.loads(result.stdout)
    VALIDATOR.validate(sarif)
    run = sarif["runs"][0]
    locations = artifact_locations(run["results"])
    assert locations and all(placeable(loc, run["originalUriBaseIds"]) for loc in locations), locations
    frames = run["results"][0]["stacks"][0]["frames"]
    uris = [f["location"]["physicalLocation"]["artifactLocation"] for f in frames]
    assert uris[0] == {"uri": "pkg/app.py", "uriBaseId": "SRCROOT"}
    assert uris[1] == {"uri": (tmp_path / "etc" / "passwd.py").as_uri()}, "from where the command ran"


def test_a_frame_climbing_out_of_a_secret_folder_is_absolute_and_redacted(cli: Isolated, tmp_path: Path) -> None:
    """The absolute path is built from the current folder: the token's folder in it is redacted."""
    traceback = (
        "Traceback (most recent call last):\n"
        '  File "../lib/helper.py", line 9, in helper\n'
        "    raise RuntimeError('zorblax frobnication failed')\n"
        "RuntimeError: zorblax frobnication failed\n"
    )
    workspace = tmp_path / TOKEN / "repo"
    workspace.mkdir(parents=True)
    result = cli("--format", "sarif", input=traceback, cwd=workspace, extra_env={"GITHUB_WORKSPACE": str(workspace)})
    nothing_of(TOKEN_BODY, result)
    sarif = json.loads(result.stdout)
    VALIDATOR.validate(sarif)
    run = sarif["runs"][0]
    assert all(placeable(loc, run["originalUriBaseIds"]) for loc in artifact_locations(run["results"]))
    frame = run["results"][0]["stacks"][0]["frames"][0]["location"]["physicalLocation"]["artifactLocation"]
    assert frame["uri"].startswith("file:///") and frame["uri"].endswith("/ghp_%E2%80%A6%5Bredacted%5D/lib/helper.py")
    assert run["properties"]["redacted"] == {"github-token": 1}
