"""`--format concise`: one `file:line:col: error: message [id]` line per error, what editors' matchers read."""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.conftest import OUTPUTS, ROOT, SEED_ID, Isolated

# The VS Code problem matcher's pattern in docs/editors.md, as a Python regex (the same text: JSON-escaped there).
MATCHER = json.loads(re.search(r"```json\n(.*?)```", (ROOT / "docs" / "editors.md").read_text(), re.S).group(1))
PATTERN = re.compile(MATCHER["problemMatcher"]["pattern"]["regexp"])
LINE = re.compile(r"^(?P<file>[^:\n]+):(?P<line>\d+):(?P<col>\d+): error: (?P<message>.*) \[(?P<id>[^\]]+)\]$")


def test_each_error_is_one_line_at_the_users_frame(cli: Isolated) -> None:
    out = cli("--format", "concise", "--no-source", "--file", str(OUTPUTS / "rust" / "cargo-test-three.txt"), cwd=ROOT)
    assert out.returncode == 0
    lines = out.stdout.splitlines()
    assert len(lines) == 3 and all(LINE.match(line) for line in lines)
    assert lines[0] == (
        "app/src/lib.rs:3:5: error: panic: index out of bounds: the len is 3 but the index is 7 [ea455540e8c53de7]"
    )


def test_the_editor_matchers_read_it(cli: Isolated) -> None:
    backtrace = str(OUTPUTS / "rust" / "cargo-run-backtrace.txt")
    line = cli("--format", "concise", "--no-source", "--file", backtrace, cwd=ROOT).stdout.splitlines()[0]
    found = PATTERN.match(line)
    assert found is not None, line
    pattern = MATCHER["problemMatcher"]["pattern"]
    assert found.group(pattern["file"]) == "app/src/main.rs" and found.group(pattern["line"]) == "14"
    assert found.group(pattern["column"]) == "38" and found.group(pattern["code"]) == SEED_ID
    assert "Can't convert a non leaf tensor" in found.group(pattern["message"])


def test_no_record_no_frame_no_column(cli: Isolated, tmp_path: Path) -> None:
    unknown = cli("--format", "concise", "--no-source", "--file", str(OUTPUTS / "rust" / "cargo-run-unknown.txt"))
    assert unknown.returncode == 1 and unknown.stdout.endswith(" [unknown]\n")
    typed = cli("--format", "concise", "WidgetError: boom")  # no frame, no file: stdin's line 1, column 1; no record
    assert typed.stdout == "-:1:1: error: WidgetError: boom [unknown]\n"
    log = tmp_path / "build.log"
    log.write_text("starting\n\nValueError: the config has no key 'lr'\n")
    assert cli("--format", "concise", "--file", str(log)).stdout.startswith(f"{log}:")
    python = cli("--format", "concise", "--no-source", "--file", str(OUTPUTS / "python" / "json-decode.txt"))
    assert re.match(r"^\S+json_decode\.py:7:1: error: json\.decoder\.JSONDecodeError: ", python.stdout)


def test_a_message_stays_on_one_line(cli: Isolated) -> None:
    text = 'Traceback (most recent call last):\n  File "/w/a.py", line 3, in <module>\nValueError: one\ntwo\x1b[31m\n'
    out = cli("--format", "concise", "--no-source", input=text).stdout
    assert out.count("\n") == 1 and "\x1b" not in out and "one two" in out


def test_show_and_list_write_plain_text(cli: Isolated) -> None:
    assert cli("show", SEED_ID, "--format", "concise").stdout == cli("show", SEED_ID, "--format", "plain").stdout
    listed = cli("list", "--repo", "tracel-ai/burn", "--format", "concise").stdout
    assert listed == cli("list", "--repo", "tracel-ai/burn", "--format", "plain").stdout
