"""Hostile records: escape sequences and markup in their text, links that are not https, giant and
malformed files, patterns built to backtrack, and `import` of records that name paths outside the
records folder. Each case is in docs/robustness.md."""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest

from leafexplain.models import Record
from leafexplain.records import load_paths
from leafexplain.records.patterns import compile_pattern
from leafexplain.records.schema import validate_record
from leafexplain.render.document import record_view
from leafexplain.render.fitting import MAX_TEXT_CHARS
from leafexplain.render.formats.markdown import render_markdown
from leafexplain.render.formats.plain import render_plain
from leafexplain.render.sections import MAX_ITEMS, REFUSED_LINK
from tests.conftest import SEED_ID, Isolated, as_record, make_record, seed_record
from tests.conftest import write_records as write
from tests.hostile import VALID_HOSTILE, assert_terminal_safe, render_rich

SEED = seed_record()
MESSAGE = "Widget frobnication failed for gadget 7"
PROSE = [
    "documentation",
    "triggerScenarios",
    "commonSituations",
    "exampleFix",
    "validationCode",
    "typeGuard",
    "tryCatchPattern",
    "sourceCode",
]
# Shown on one line (a heading, a cell, a `key: value` line): refused with a line break or a control character.
ONE_LINE = ["errorCode", "errorType", "errorClass", "filePath", "handlingStrategy", "backgroundTag", "analyzedSha"]


def record(record_id: str = "00000000000000aa", message: str = MESSAGE, **fields: object) -> dict[str, object]:
    """A record of the factory, with a placeholder where the message has its number, a line and a link."""
    defaults: dict[str, object] = {
        "messagePattern": message.replace("7", "{}"),
        "lineNumber": 3,
        "sourceCodeStart": 1,
        "githubUrl": "https://github.com/acme/widgets/blob/" + "a" * 40 + "/src/lib.rs#L1-L9",
    }
    return make_record(record_id, message, **{**defaults, **fields})


def hostile_record(**fields: object) -> dict[str, object]:
    prose = {name: f"{name} says {VALID_HOSTILE} [bold red]literal[/bold red]" for name in PROSE}
    lists = {name: [f"{name} {VALID_HOSTILE}"] * 3 for name in ("solutions", "preventionTips")}
    return record(**{**prose, **lists, **fields})


PANIC = f"thread 'main' panicked at src/main.rs:1:5:\n{MESSAGE}\n"


# --- escape sequences and markup in records ---------------------------------------------------


@pytest.mark.parametrize("fmt", ["rich", "plain", "markdown", "json"])
def test_escape_sequences_in_a_record_never_reach_the_terminal(cli, tmp_path: Path, fmt: str) -> None:
    folder = tmp_path / "recs"
    write(folder, "hostile.json", hostile_record())
    common = ("--records", str(folder), "--format", fmt, "--color", "always")
    runs = [
        cli(*common, "--full", input=PANIC),
        cli("show", "00000000000000aa", *common),
        cli("list", "--repo", "acme/widgets", *common),
        cli("search", "frobnication", *common),
    ]
    for result in runs:
        assert result.returncode == 0, result.stderr
        assert "Widget frobnication" in result.stdout
        assert_terminal_safe(result.stdout)
        assert_terminal_safe(result.stderr)
    if fmt == "json":  # data, kept whole, with every control character escaped
        shown = json.loads(runs[1].stdout)["record"]["documentation"]
        assert shown.startswith("documentation says \x1b[2J")


def test_rich_markup_in_a_record_prints_literally(cli, tmp_path: Path) -> None:
    folder = tmp_path / "recs"
    write(folder, "markup.json", record(documentation="[bold red]not bold[/bold red] [link=file:///etc]x[/link]"))
    result = cli("--records", str(folder), "--format", "rich", "--color", "always", "--width", "200", input=PANIC)
    assert "[bold red]not bold[/bold red] [link=file:///etc]x[/link]" in result.stdout
    assert "file:///etc\x1b" not in result.stdout


def test_hostile_file_names_and_fields_in_warnings_validate_and_verify(cli, tmp_path: Path) -> None:
    folder = tmp_path / "recs"
    write(folder, "broken\x1b]52;c;eA==\x07\x1b[2J.json", record())
    (folder / "broken\x1b]52;c;eA==\x07\x1b[2J.json").write_text("{not json")
    write(folder, "dup\x9b31m\u202e.json", record("00000000000000bb"))
    write(folder, "dup2.json", record("00000000000000bb"))
    source = tmp_path / "src"
    (source / "src").mkdir(parents=True)
    (source / "src" / "lib.rs").write_text(f'fn f() {{\n    panic!("{MESSAGE}");\n}}\n')
    write(tmp_path / "v", "v.json", record(filePath="src/lib.rs\x1b[2J\x1b]8;;javascript:x\x07"))
    runs = [
        cli("--records", str(folder), "--format", "plain", input=PANIC),
        cli("validate", str(folder)),
        cli("validate", str(folder), "--format", "json"),
        cli("verify", "--source", str(source), "--repo", "acme/widgets", str(tmp_path / "v")),
    ]
    assert runs[0].returncode == 0 and "skipped record" in runs[0].stderr and "duplicate id" in runs[0].stderr
    assert runs[1].returncode == 1 and "\\x1b]52;c;eA==\\x07" in runs[1].stdout  # named, escaped
    # A filePath with escapes in it is no longer a record to verify: refused, its field named.
    assert runs[3].returncode == 1 and "field 'filePath'" in runs[3].stdout + runs[3].stderr
    for result in runs:
        assert_terminal_safe(result.stdout)
        assert_terminal_safe(result.stderr)
        assert "Traceback" not in result.stderr


# --- links ------------------------------------------------------------------------------------

BAD_LINKS = [
    "javascript:alert(1)",
    "file:///etc/passwd",
    "data:text/html;base64,PHNjcmlwdD4=",
    "http://github.com/acme/widgets",
    "https://user:secret@github.com/acme/widgets",
    "https://github.com@evil.example/x",
    "https://github.com/acme/widgets\x1b]8;;javascript:alert(1)\x07",
    "https://github.com/acme/widgets>[x](javascript:alert(1))",
    "https://github.com/acme/widgets\u202e",
    "https://github.com/" + "a" * 3000,
]


@pytest.mark.parametrize("url", BAD_LINKS)
def test_a_link_that_is_not_plain_https_is_refused_and_never_rendered(url: str) -> None:
    _, problems = validate_record(record(githubUrl=url), "x.json")
    assert [p.field for p in problems] == ["githubUrl"]
    # A record that never met validation (an embedding program built it) still gets no link.
    bypass = as_record({**record(), "githubUrl": url, "slug": "s"})
    view = record_view(bypass)
    rich = render_rich([view], color=True)
    assert "\x1b]8;" not in rich and REFUSED_LINK in rich
    markdown = render_markdown([view])
    assert "<javascript" not in markdown and "](javascript" not in markdown and REFUSED_LINK in markdown
    assert view.url is None
    for output in (rich, markdown, render_plain([view], 100)):
        assert_terminal_safe(output)


def test_the_renderers_check_links_themselves() -> None:
    """A view built by other code, with a link block that is not https, still makes no hyperlink."""
    from leafexplain.render.document import View
    from leafexplain.render.sections import Block, Section

    blocks = tuple(Block("link", url) for url in BAD_LINKS)
    view = View("heading", "message", None, (), (Section("Links", blocks),), explained=True)
    rich = render_rich([view], color=True)
    assert "\x1b]8;" not in rich
    markdown = render_markdown([view])
    assert "<javascript" not in markdown and "<file:" not in markdown and "<https://user" not in markdown


def test_an_https_link_is_a_hyperlink() -> None:
    view = record_view(as_record({**record(), "slug": "s"}))
    assert "\x1b]8;id=" in render_rich([view], color=True) and view.url == record()["githubUrl"]


# --- giant, malformed and hostile files ------------------------------------------------------


def test_giant_fields_are_cut_in_rendering_with_a_note(cli, tmp_path: Path) -> None:
    folder = tmp_path / "recs"
    big = "word " * 30_000  # 150,000 characters: valid, but not for a terminal
    write(folder, "big.json", record(documentation=big, solutions=["fix"] * 5000, tags=[f"t{n}" for n in range(500)]))
    result = cli("--records", str(folder), "--format", "plain", "--full", input=PANIC)
    assert result.returncode == 0
    assert f"[… {len(big) - MAX_TEXT_CHARS} more characters not shown]" in result.stdout
    assert f"[… {5000 - MAX_ITEMS} more not shown]" in result.stdout
    assert f"[… {500 - MAX_ITEMS} more not shown]" in result.stdout
    assert len(result.stdout) < 40_000
    too_big = write(folder, "too-big.json", record("00000000000000cc", documentation="x" * 300_000))
    validated = cli("validate", str(too_big))
    assert validated.returncode == 1 and "longer than 200000 characters" in validated.stdout


def test_malformed_records_are_clear_problems_and_the_rest_loads(tmp_path: Path) -> None:
    folder = tmp_path / "recs"
    write(folder, "good.json", record("00000000000000aa"))
    (folder / "deep.json").write_text("[" * 200_000 + "]" * 200_000)
    (folder / "deep.jsonl").write_text('{"a":' * 100_000 + "1" + "}" * 100_000 + "\n")
    (folder / "digits.json").write_text('{"id": "x", "lineNumber": 1' + "0" * 5000 + "}")
    (folder / "not-utf8.json").write_bytes(b'{"id": "\xff\xfe"}')
    (folder / "a-list.json").write_text('[1, "two", null, [3]]')
    write(folder, "types.jsonl", record("1", lineNumber="12"), record("2", tags=[1, 2]), record("3", repo=5))
    write(folder, "surrogate.json", record("00000000000000dd", documentation="\ud800 alone"))
    write(folder, "dots.json", record("00000000000000ee", repo="../.."))
    write(folder, "c1.json", record("0000000000000011", slug="x\x9b31my\u202e"))
    write(folder, "dup-a.json", record("00000000000000ff", message="first widget message"))
    write(folder, "dup-b.json", record("00000000000000ff", message="second widget message"))
    os.mkfifo(folder / "fifo.json")
    loaded = load_paths([str(folder)])
    assert sorted(r.id for r in loaded.records) == ["00000000000000aa", "00000000000000ff"]
    assert [r.errorMessage for r in loaded.records if r.id.endswith("ff")] == ["second widget message"]
    said = "\n".join(str(p) for p in loaded.problems)
    for expected in [
        "deep.json: not valid JSON: nested too deeply",
        "deep.jsonl:1: not valid JSON: nested too deeply",
        "digits.json: not valid JSON",
        "not-utf8.json: not",
        "a-list.json:1: expected a record object, found int",
        "types.jsonl:1: field 'lineNumber': must be a integer, found str",
        "types.jsonl:2: field 'tags': must be a list of strings",
        "types.jsonl:3: field 'repo': must be a string, found int",
        "surrogate.json: field 'documentation': holds a lone surrogate",
        "dots.json: field 'repo': must look like 'owner/name'",
        "c1.json: field 'slug': contains control characters",
        "dup-b.json: field 'id': duplicate id 00000000000000ff",
        "fifo.json: not a regular file",
    ]:
        assert expected in said, said


def test_two_gigabyte_record_files_are_refused_and_the_rest_loads(tmp_path: Path) -> None:
    """Sparse files: 2 GB on paper, nothing on disk. The .json is refused by its size; the .jsonl
    line, 2 GB without a newline, is skipped in pieces, never held (peak memory stays small)."""
    from tests.hostile import PEAK_LIMIT_KB, run_measured

    folder = tmp_path / "recs"
    write(folder, "good.json", record())
    for name in ("huge.json", "huge.jsonl"):
        with (folder / name).open("wb") as handle:
            handle.truncate(2 << 30)
    (tmp_path / "panic.txt").write_text(PANIC)
    code, peak, stdout, stderr = run_measured(
        tmp_path / "panic.txt", Isolated(tmp_path).environ, "--records", str(folder), "--format", "json"
    )
    assert code == 0 and json.loads(stdout)["events"][0]["matches"][0]["id"] == "00000000000000aa"
    assert "huge.json: 2147483648 bytes is too large for a record file" in stderr
    assert "huge.jsonl:1: line longer than" in stderr and "the rest of the file is not read" in stderr
    assert peak < PEAK_LIMIT_KB, f"peak {peak // 1024} MB"


# --- patterns built to backtrack ---------------------------------------------------------------

ADVERSARIAL = [
    ("{}a{}a{}a{}a{}a{}a{}a{}a{}a{}a{}b", "a" * 20_000, None),
    ("{} x {} x {} x {} x {} x {} x {} y", "x " * 20_000, None),
    ("(a+)+{}(a*)*{}((a|aa)+)+$ boom", "(a+)+" + "a" * 20_000, None),
    ("{}  {}  {}  {}  {}  z", " " * 20_000 + "q", None),
    ("   leading space {}", " " * 20_000 + "leading space here", (0, 20_018)),
    ("%s%s%s%s%s%s%s%s%s%s%s%s end", "s" * 20_000 + " end", (0, 20_004)),
]


@pytest.mark.parametrize(("pattern", "message", "span"), ADVERSARIAL)
def test_patterns_built_to_backtrack_match_in_linear_time(pattern: str, message: str, span: object) -> None:
    """Under the wildcard regex each of these takes years; here each piece is searched once."""
    found = compile_pattern(pattern).search(message)
    assert (found and found.span()) == span


def test_a_backtracking_pattern_in_a_record_does_not_hang_explain(cli, tmp_path: Path) -> None:
    folder = tmp_path / "recs"
    write(folder, "evil.json", record(message="aaaa", messagePattern="{}a{}a{}a{}a{}a{}a{}a{}a{}a{}a{}a{}b"))
    text = "thread 'main' panicked at src/main.rs:1:5:\n" + "a" * 8000 + "\n"
    # A process of its own: its timeout guards the suite against a matcher that backtracks for ever.
    result = cli.process("--records", str(folder), "--no-bundled", "--format", "json", input=text)
    assert result.returncode == 1 and "Traceback" not in result.stderr


# --- import -------------------------------------------------------------------------------------


def tree(root: Path) -> set[str]:
    return {str(p.relative_to(root)) for p in root.rglob("*")}


@pytest.fixture
def sandbox(tmp_path: Path) -> tuple[Path, Path, Isolated]:
    """A data folder inside a sandbox: anything written outside the records folder shows."""
    sandbox = tmp_path / "sandbox"
    user = Isolated(tmp_path, XDG_DATA_HOME=str(sandbox / "data"))
    return sandbox, user.records, user


def run_import(user: Isolated, *args: str) -> subprocess.CompletedProcess[str]:
    return user("import", *args)


def test_import_never_writes_outside_the_records_folder(tmp_path: Path, sandbox) -> None:
    root, records, env = sandbox
    incoming = write(
        tmp_path / "in",
        "hostile.jsonl",
        record("r1", repo="..a/..b", slug="escaped"),
        record("r2", repo="acme/..widgets..", slug="x.y"),
        record("r3", slug="../../../../escaped"),
        record("r4", slug="/tmp/absolute"),
        record("r5", slug="...."),
        record("../../../../r6"),
        record("/abs/r7", slug=""),
        record("r8", slug="con\\..\\..\\win"),
        record("r9", slug="a\x00b"),
        record("r10", repo="../..", slug="x"),
    )
    result = run_import(env, str(incoming))
    assert result.returncode == 1  # r3 to r10 are not valid records: reported, skipped
    assert "r9" not in result.stdout and "slug': contains control characters" in result.stderr
    assert "must look like 'owner/name'" in result.stderr and "field 'id': must be a token" in result.stderr
    written = tree(root)
    assert all(p.startswith("data") for p in written), written
    files = sorted(p for p in written if p.endswith(".json"))
    assert len(files) == 2 and all(p.startswith("data/leafexplain/records/") for p in files), files
    assert all(re.fullmatch(r"[A-Za-z0-9._/-]+", p) and "/." not in p for p in files), files
    assert load_paths([str(records)]).problems == ()
    assert_terminal_safe(result.stdout + result.stderr)
    # Names made from a record that never met validation (an embedding program's) stay inside too.
    from leafexplain.authoring.importing import target_for

    for repo, slug, record_id in (
        ("../..", "../../x", "/abs/y"),
        ("a/b", "....", "..\\..\\z"),
        ("..a/.b", "a\x00b", ""),
    ):
        hostile = Record(id=record_id, repo=repo, slug=slug, errorMessage="m", messagePattern="m")
        target = target_for(hostile, records, set())
        assert target.resolve().is_relative_to(records) and not target.name.startswith("."), target


def test_import_does_not_follow_a_symlink_out_of_the_records_folder(tmp_path: Path, sandbox) -> None:
    _, records, env = sandbox
    outside = tmp_path / "outside"
    outside.mkdir()
    (records / "acme").mkdir(parents=True)
    (records / "acme" / "widgets").symlink_to(outside, target_is_directory=True)
    result = run_import(env, str(write(tmp_path / "in", "r.json", record())))
    assert result.returncode == 1
    assert "leads outside" in result.stderr or "is not inside" in result.stderr
    assert list(outside.iterdir()) == []


def test_import_never_overwrites_a_different_record_silently(tmp_path: Path, sandbox) -> None:
    _, records, env = sandbox
    first = run_import(env, str(write(tmp_path / "a", "r.json", record("r1", message="Widget frobnication failed 7"))))
    assert first.returncode == 0 and first.stdout.startswith("imported")
    target = next(records.rglob("*.json"))
    before = target.read_text()
    again = run_import(env, str(write(tmp_path / "b", "r.json", record("r1", message="Widget frobnication failed 7"))))
    assert again.returncode == 0 and again.stdout.startswith("unchanged")
    changed = write(tmp_path / "c", "r.json", record("r1", message="Widget frobnication exploded 7"))
    refused = run_import(env, str(changed))
    assert refused.returncode == 1 and "--force replaces it" in refused.stderr and target.read_text() == before
    forced = run_import(env, "--force", str(changed))
    assert forced.returncode == 0 and forced.stdout.startswith("replaced") and "exploded" in target.read_text()
    same_name = run_import(
        env, str(write(tmp_path / "d", "r.json", record("r2", message="Widget frobnication exploded 7")))
    )
    assert same_name.returncode == 0 and "exploded" in target.read_text()
    assert len(list(records.rglob("*.json"))) == 2  # a unique name for the other id
    (records / "multi.jsonl").write_text(json.dumps(record("r3")) + "\n" + json.dumps(record("r4")) + "\n")
    inside = run_import(env, "--force", str(write(tmp_path / "e", "r.json", record("r3", message="Widget other 7"))))
    assert inside.returncode == 1 and "holds other records too" in inside.stderr
    missing = run_import(env, str(tmp_path / "nope.json"))
    assert missing.returncode == 2 and "no such file" in missing.stderr


def test_imported_records_are_used_and_keep_every_field(cli, tmp_path: Path) -> None:
    source = write(tmp_path / "in", "seed.json", {"record": {**SEED, "futureField": 1}, "datasetVersion": "v9"})
    imported = cli("import", str(source))
    assert imported.returncode == 0, imported.stderr
    written = next((tmp_path / "data" / "leafexplain" / "records").rglob("*.json"))
    assert json.loads(written.read_text()) == {"record": {**SEED, "futureField": 1}, "datasetVersion": "v9"}
    shown = cli("show", SEED_ID, "--no-bundled", "--format", "json")
    assert shown.returncode == 0 and json.loads(shown.stdout)["record"]["id"] == SEED_ID


@pytest.mark.parametrize("field", ONE_LINE)
@pytest.mark.parametrize("value", ["x\nforged line", "x\rforged", "x\u2028forged", "x\u0085forged", "x\x1b[2Jy"])
def test_a_one_line_field_with_a_line_break_or_control_is_refused(tmp_path: Path, field: str, value: str) -> None:
    write(tmp_path, "r.json", record(**{field: value}))
    loaded = load_paths([str(tmp_path)])
    assert list(loaded.records) == [] and [p.field for p in loaded.problems] == [field]


def test_a_line_separator_in_record_prose_is_not_shown() -> None:
    view = record_view(as_record(record(documentation="one\u2028two\u2029three")))
    text = render_plain([view], 100)
    assert "\u2028" not in text and "\u2029" not in text and "one" in text


def test_a_dataset_version_with_a_line_break_is_refused(tmp_path: Path) -> None:
    (tmp_path / "r.json").write_text(json.dumps({"record": record(), "datasetVersion": "1.0\nFORGED line"}))
    loaded = load_paths([str(tmp_path)])
    assert list(loaded.records) == [] and [p.field for p in loaded.problems] == ["datasetVersion"]


def test_a_diagnostic_quoting_a_line_separator_stays_one_line(cli) -> None:
    for args in (["show", "x\u2029FORGED"], ["search", "zzqq\u2028FORGED"], ["--file", "/nonexist\u2029FORGED"]):
        err = cli(*args).stderr
        assert err.count("\n") == 1 and "\u2028" not in err and "\u2029" not in err and "\\u202" in err, args
