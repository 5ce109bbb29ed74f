"""The command as a user drives it: inputs, exit codes, formats, errors, pipes (in-process but for the pipe)."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

from leafexplain import __version__
from tests.conftest import LEAF, SEED_FILE, SEED_ID, SEED_SLUG, leafexplain_command, make_record

ESCAPE = re.compile(r"\x1b")


def test_version_and_help(cli) -> None:
    result = cli("--version")
    assert result.returncode == 0 and result.stdout.strip() == f"leafexplain {__version__}"
    helped = cli("--help")
    assert helped.returncode == 0
    for command in ("explain", "show", "list", "search", "validate", "demo"):
        assert command in helped.stdout
    for command in ("explain", "show", "list", "search", "validate"):
        text = cli(command, "--help").stdout
        assert "Example" in text, command


def test_piped_input_explains_with_exit_0(cli) -> None:
    result = cli(input=LEAF.read_text())
    assert result.returncode == 0
    assert "Can't convert a non leaf tensor" in result.stdout
    assert "https://github.com/tracel-ai/burn/blob/" in result.stdout
    assert not ESCAPE.search(result.stdout), "a pipe gets plain text"


def test_explain_options_work_without_the_subcommand(cli) -> None:
    direct = cli("--format", "json", "--file", str(LEAF))
    named = cli("explain", "--format", "json", "--file", str(LEAF))
    assert json.loads(direct.stdout)["events"] == json.loads(named.stdout)["events"]
    assert cli("--records", "/nonexistent", "show", SEED_ID).returncode == 0


def test_text_arguments_and_file_dash(cli) -> None:
    words = cli("--format", "json", "Can't", "convert", "a", "non", "leaf", "tensor", "into", "a", "tracked", "tensor")
    assert json.loads(words.stdout)["events"][0]["matches"][0]["id"] == SEED_ID
    dash = cli("--format", "json", "--file", "-", input=LEAF.read_text())
    assert json.loads(dash.stdout)["events"][0]["matches"][0]["id"] == SEED_ID


def test_unknown_panic_exits_1_with_message(cli) -> None:
    result = cli(input="thread 'main' (7) panicked at src/main.rs:2:5:\ntenant quota exceeded: 1001 > 1000\n")
    assert result.returncode == 1
    assert "tenant quota exceeded" in result.stdout
    assert "No record matches this error" in result.stdout


def test_text_without_error_exits_0_with_one_line_on_stderr(cli) -> None:
    result = cli(input="\n" + "all good, 12 tests passed\n" * 50)
    assert result.returncode == 0
    assert result.stdout == ""
    assert result.stderr.strip().count("\n") == 0 and "no error found" in result.stderr
    as_json = cli("--format", "json", input="Compiling app v0.1.0\n    Finished `dev` profile in 0.2s\n")
    assert as_json.returncode == 0 and json.loads(as_json.stdout)["events"] == []


def test_typed_text_is_an_error_even_when_no_record_has_it(cli) -> None:
    result = cli("--format", "json", "the frobnicator refused to start")
    assert result.returncode == 1 and len(json.loads(result.stdout)["events"]) == 1


def test_unreadable_file_and_bad_option_exit_2(cli, tmp_path: Path) -> None:
    missing = cli("--file", str(tmp_path / "absent.log"))
    assert missing.returncode == 2 and "no such file" in missing.stderr and "Traceback" not in missing.stderr
    folder = cli("--file", str(tmp_path))
    assert folder.returncode == 2
    bad = cli("--format", "yaml", input="x")
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    assert cli("--threshold", "120", input="x").returncode == 2


def test_formats(cli) -> None:
    plain = cli("--format", "plain", "--file", str(LEAF))
    assert not ESCAPE.search(plain.stdout)
    rich = cli("--format", "rich", "--color", "always", "--file", str(LEAF))
    assert ESCAPE.search(rich.stdout) and "\x1b]8;" in rich.stdout, "colour and a clickable link"
    no_color = cli("--format", "rich", "--color", "auto", "--file", str(LEAF), extra_env={"NO_COLOR": "1"})
    assert not ESCAPE.search(no_color.stdout)
    markdown = cli("--format", "markdown", "--file", str(LEAF))
    assert markdown.stdout.startswith("## panic")
    doc = json.loads(cli("--format", "json", "--file", str(LEAF)).stdout)
    event = doc["events"][0]
    assert set(event) >= {"language", "error_type", "message", "location", "user_frame", "count", "matches", "near"}
    assert set(event["matches"][0]) >= {"id", "repo", "slug", "errorMessage", "messagePattern", "score", "method"}


def test_all_shows_other_candidates_and_threshold_changes_cutoff(cli) -> None:
    text = "thread 'main' (1) panicked at src/main.rs:1:1:\nalready mutably borrowed: BorrowError\n"
    default = json.loads(cli("--format", "json", input=text).stdout)["events"][0]
    assert default["matches"][0]["slug"] == "already-mutably-borrowed-borrowerror"
    # Cut short by the person who pasted it: only words in common, below a cut-off of 100.
    cut = "RuntimeError: Trying to backward through the graph a second time,\n"
    strict = json.loads(cli("--format", "json", "--threshold", "100", input=cut).stdout)["events"][0]
    assert strict["matches"] == [] and strict["near"]
    unwrap = (
        "thread 'main' panicked at src/main.rs:2:5:\n"
        "called `Result::unwrap()` on an `Err` value: ParseIntError { kind: InvalidDigit }\n"
    )
    # The error inside the wrapper explained first, the wrapper in one line; --full --all lists it.
    shown = cli("--format", "plain", "--all", "--width", "100", input=unwrap).stdout
    assert '  matched: the Rust std record "ParseIntError { kind: InvalidDigit }' in shown
    assert '  wrapper: the Rust std record "called `Result::unwrap()` on an `Err` value' in shown
    full = cli("--format", "plain", "--all", "--full", input=unwrap).stdout
    assert "Other candidates" in full and 'record "called `Result::unwrap()` on an `Err` value' in full


def test_full_adds_handling_sections(cli) -> None:
    plain = cli("--format", "plain", "--file", str(LEAF)).stdout
    full = cli("--format", "plain", "--full", "--file", str(LEAF)).stdout
    assert "Type guard" not in plain and "Type guard" in full and "Try/catch pattern" in full


def test_show_list_search(cli) -> None:
    shown = cli("show", SEED_SLUG, "--format", "plain")
    assert shown.returncode == 0 and "Handling strategy" in shown.stdout and "> 110 |" in shown.stdout
    assert json.loads(cli("show", SEED_ID, "--format", "json").stdout)["record"]["slug"] == SEED_SLUG
    assert cli("show", "no-such-record").returncode == 1
    listed = cli("list", "--repo", "tracel-ai/burn", "--format", "json")
    rows = json.loads(listed.stdout)["records"]
    assert len(rows) >= 30 and {r["repo"] for r in rows} == {"tracel-ai/burn"}
    tagged = json.loads(cli("list", "--tag", "autodiff", "--format", "json").stdout)["records"]
    assert SEED_ID in {r["id"] for r in tagged}
    plain = cli("list", "--format", "plain").stdout.splitlines()
    assert plain[0].split() == ["id", "repo", "type", "message"]
    found = json.loads(cli("search", "non leaf tensor tracked", "--format", "json").stdout)["records"]
    assert found[0]["id"] == SEED_ID


def test_validate_names_the_broken_file_and_field(cli, tmp_path: Path) -> None:
    good = tmp_path / "good.json"
    good.write_bytes(SEED_FILE.read_bytes())
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps({"record": make_record("ff", "x y z w", repo="a/b", lineNumber="12")}))
    result = cli("validate", str(tmp_path))
    assert result.returncode == 1
    assert "broken.json" in result.stdout and "lineNumber" in result.stdout
    assert "1 valid records; 1 problem" in result.stdout
    explained = cli("--records", str(tmp_path), "--no-bundled", "--format", "json", "--file", str(LEAF))
    assert explained.returncode == 0
    assert json.loads(explained.stdout)["events"][0]["matches"][0]["id"] == SEED_ID
    assert "broken.json" in explained.stderr
    assert cli("validate").returncode == 0


def test_demo_runs_the_bundled_example(cli) -> None:
    result = cli("demo", "--format", "plain")
    assert result.returncode == 0 and "tracel-ai/burn" in result.stdout


def test_closed_pipe_is_quiet() -> None:
    big = LEAF.read_text() * 200
    cmd = " ".join(leafexplain_command()) + " --format plain | head -n 3"
    done = subprocess.run(["bash", "-c", cmd], input=big, capture_output=True, text=True, timeout=60)
    assert len(done.stdout.splitlines()) == 3
    assert "Traceback" not in done.stderr and "BrokenPipe" not in done.stderr


def test_no_input_on_a_terminal_is_a_usage_error(cli) -> None:
    # A terminal on stdin: nothing piped, no text given.
    for args in ((), ("--format", "json"), ("explain",)):
        result = cli(*args, tty=True)
        assert result.returncode == 2 and "no input" in result.stderr and "Usage: leafexplain" in result.stderr
