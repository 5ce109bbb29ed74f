"""The default view: one screen per error for every record, the match said in words, the numbers with --verbose,
everything the record has with --full, several errors counted, a thread a thread."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from leafexplain.models import Candidate, Record
from leafexplain.render import Style, to_text
from leafexplain.render.fitting import cells, crop_code
from leafexplain.render.layout import SCREEN_ROWS
from leafexplain.render.naming import match_words
from leafexplain.session import explain
from tests.conftest import LEAF, OUTPUTS, RECORDS, SEED_ID, SEED_SLUG, as_record, bundled_records, seed_record

SHAPES_SLUG = "mat1-and-mat2-shapes-cannot-be-multiplied-32x512-a"


def as_printed(record: Record) -> str:
    """The record's own message as its program would print it."""
    if record.errorType == "panic":
        return f"thread 'main' (7) panicked at src/main.rs:3:5:\n{record.errorMessage}\n"
    error = record.errorClass or "RuntimeError"
    frame = '  File "t.py", line 1, in <module>\n    f()\n'
    return f"Traceback (most recent call last):\n{frame}{error}: {record.errorMessage}\n"


def screen_rows(text: str, width: int) -> int:
    return sum(max(1, math.ceil(cells(line) / width)) for line in text.rstrip("\n").split("\n"))


@pytest.mark.parametrize("width", [80, 120])
def test_every_bundled_record_fits_one_screen_with_its_first_fix_and_whole_link(bundled_matcher, width: int) -> None:
    checked = 0
    for record in bundled_records().records:
        report = explain(as_printed(record), bundled_matcher)
        if not report.findings or report.findings[0].best is None or report.findings[0].best.record.id != record.id:
            continue  # a more specific record explains this message: tests/records/test_tidy.py covers which
        checked += 1
        text = to_text(report, Style(format="plain", width=width))
        assert screen_rows(text, width) <= SCREEN_ROWS, (record.slug, text)
        if record.solutions:
            assert re.search(r"^  fix:     1\. \S", text, re.M), (record.slug, text)
        # The link: the record's own, or where its message is at a release when its commit is gone (the seed).
        moved = [v.githubUrl for v in record.messageVariants if v.recordCommitMissing]
        url = moved[0] if moved else record.githubUrl
        if url:
            assert f"\n  {url}\n" in text or f" {url}\n" in text, record.slug
    assert checked >= 300


def test_matched_in_words_without_slug_or_offsets_and_the_numbers_with_verbose(cli) -> None:
    default = cli("--format", "plain", "--no-source", "--file", str(LEAF)).stdout
    assert '  matched: the burn record "Can\'t convert a non leaf tensor into a tracked tensor", exact wording' in (
        default
    )
    assert SEED_SLUG not in default and "characters" not in default and "score" not in default
    verbose = cli("--format", "plain", "--no-source", "--verbose", "--width", "200", "--file", str(LEAF)).stdout
    assert f"exact wording (regex, score 100, characters 0-53, id {SEED_ID})" in verbose
    match = json.loads(cli("--format", "json", "--file", str(LEAF)).stdout)["events"][0]["matches"][0]
    assert (match["score"], match["method"], match["span"], match["confidence"], match["wording"]) == (
        100.0,
        "regex",
        [0, 53],
        "exact wording",
        None,
    )


def test_confidence_in_words() -> None:
    record = as_record(seed_record())._replace(messageVariants=())
    assert match_words(Candidate(record, 100.0, "regex")).endswith(", exact wording")
    other = Candidate(record, 100.0, "regex", wording="torch <= 1.13 (THC kernels)")
    assert match_words(other).endswith(", same error, wording of torch <= 1.13"), "without the record's notes"
    assert match_words(Candidate(record, 90.0, "class")).endswith(", class-level (its exception class alone)")
    assert Candidate(record, 91.0, "fuzzy").confidence == "similar message"
    assert match_words(Candidate(record, 91.0, "fuzzy")).endswith(", similar message")


def normalized(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize("slug", [SEED_SLUG, SHAPES_SLUG])
def test_full_shows_every_field_the_record_has(cli, slug: str) -> None:
    [path] = RECORDS.rglob(f"{slug}.json")  # every field as its file has it
    record = json.loads(path.read_text(encoding="utf-8"))["record"]
    explained = cli("--format", "plain", "--full", "--no-source", "--width", "1000", record["errorMessage"]).stdout
    shown = cli("show", slug, "--format", "plain", "--width", "1000").stdout
    for output in (explained, shown):
        flat = normalized(output)
        for field, value in record.items():
            if value in (None, "", []):
                continue
            if field == "messageVariants":
                for variant in value:
                    for part in variant.values():
                        shown = "the record's own commit is not in the history" if part is True else str(part)
                        assert normalized(shown) in flat, (field, part)
            elif field in ("sourceCode", "exampleFix", "validationCode", "typeGuard", "tryCatchPattern"):
                for line in value.split("\n"):
                    assert normalized(line) in flat, (field, line)
            elif isinstance(value, list):
                for item in value:
                    assert normalized(item) in flat, (field, item)
            else:
                assert normalized(str(value)) in flat, (field, value)


def test_several_errors_each_compact_then_counted(cli) -> None:
    text = (OUTPUTS / "rust" / "cargo-test-three.txt").read_text() + (
        OUTPUTS / "rust" / "cargo-run-unknown.txt"
    ).read_text()
    out = cli("--format", "plain", "--no-source", input=text).stdout
    assert [line for line in out.split("\n") if re.match(r"^\[\d/4\] ", line)] == [
        "[1/4] panic · Rust std · exact wording",
        "[2/4] panic · Rust std · exact wording",
        "[3/4] panic · burn · exact wording",
        "[4/4] panic · Rust · no record",
    ]
    assert out.rstrip().endswith("4 errors: 3 explained, 1 unknown")


def test_an_error_explained_above_is_not_explained_twice(cli) -> None:
    panic = "thread 'main' panicked at src/{0}.rs:1:1:\ncalled `Option::unwrap()` on a `None` value\n"
    out = cli("--format", "plain", "--no-source", input=panic.format("a") + panic.format("b")).stdout
    assert out.count("  fix:") == 1 and "  why:     explained above, for error 1" in out


def test_a_thread_is_a_thread_and_a_test_a_test(cli) -> None:
    worker = "thread 'worker-1' (7) panicked at src/main.rs:3:3:\ncalled `Option::unwrap()` on a `None` value\n"
    out = cli("--format", "plain", "--no-source", input=worker).stdout
    assert "src/main.rs:3:3 · thread worker-1" in out and "test" not in out
    three = cli("--format", "plain", "--no-source", "--file", str(OUTPUTS / "rust" / "cargo-test-three.txt")).stdout
    assert "app/src/lib.rs:27:43 · test tests::three_no_even_value" in three and "thread" not in three


def test_the_demo_agrees_with_itself(cli) -> None:
    """The example panics at line 20 of burn's tensor.rs; the record was written against line 110: said so."""
    default = cli("demo", "--format", "plain", "--no-source", "--width", "120").stdout
    assert (
        "  raised:  burn, crates/burn-autodiff/src/tensor.rs:110 (line 90 at 75b7881397; your run: line 20)" in default
    )
    full = cli("demo", "--format", "plain", "--no-source", "--full").stdout
    assert "raised at: crates/burn-autodiff/src/tensor.rs:20:13" in full
    assert "Your run raised it at line 20 of this file: another version of it." in full


def test_a_record_whose_commit_is_gone_links_its_message_at_a_release(cli) -> None:
    """The seed's commit d16f7ba is not in burn's history: its link leads nowhere. Its message history
    gives the place at v0.20.1, which the default view links, and --full shows beside the record's own."""
    at_release = (
        "/tracel-ai/burn/blob/75b7881397df1f21e5c2bf51cd3aa6b9ae2bb6a4/crates/burn-autodiff/src/tensor.rs#L75-L110"
    )
    gone = "/tracel-ai/burn/blob/d16f7ba2ed0d41408189384044cc886fb4c8f957/"
    default = cli("demo", "--format", "plain", "--no-source").stdout
    assert at_release in default and gone not in default
    full = cli("demo", "--format", "plain", "--no-source", "--full").stdout
    assert at_release in full and gone in full and "crates/burn-autodiff/src/tensor.rs:90" in full


def test_your_code_in_the_default_view(cli, tmp_path: Path) -> None:
    main = tmp_path / "app" / "src" / "main.rs"
    main.parent.mkdir(parents=True)
    main.write_text("".join(f"// line {n}\n" for n in range(1, 14)) + "let w = scaled().require_grad();\n// after\n")
    out = cli("--format", "plain", "--root", str(tmp_path), "--file", str(LEAF.parent / "cargo-run-backtrace.txt"))
    mine = "           13 | // line 13\n         > 14 | let w = scaled().require_grad();\n           15 | // after\n"
    assert mine in out.stdout


CODE = st.text(alphabet="abcdefgh_xyz0123456789 .,;:()[]{}<>=+-*/&|!?\"'#", min_size=0, max_size=200)


@given(CODE, st.integers(min_value=10, max_value=120))
def test_code_is_cropped_between_tokens_with_a_mark(line: str, room: int) -> None:
    shown = crop_code(line, room)
    if shown == line:
        assert cells(line) <= room
        return
    assert shown.endswith(" …") and cells(shown) <= room
    kept = shown[: -len(" …")]
    assert line.startswith(kept) or re.sub(r"\s+(?://|#)\s.*$", "", line).startswith(kept)
    rest = line[len(kept) :]
    assert not (kept[-1:].isalnum() and rest[:1].isalnum()), "never inside a word or number"


def test_nothing_in_the_input_or_the_records_reads_files_for_the_json_case(cli) -> None:
    """--no-source: the traceback's own line of code still shows (it is in the input, not read from disk)."""
    out = cli("--format", "plain", "--no-source", "--file", str(OUTPUTS / "python" / "json-decode.txt")).stdout
    assert "         > 7 | return json.loads(text)" in out
    assert str(Path("/tmp/leafexplain-corpus/python/json_decode.py")) + ":7 in load_config" in out


@pytest.mark.parametrize("width", ["60", "80"])
@pytest.mark.parametrize("full", [False, True])
@pytest.mark.parametrize(
    "fmt", [["--format", "plain"], ["--format", "markdown"], ["--format", "rich", "--color", "always"]]
)
def test_links_are_whole_in_every_format_and_width(cli, fmt: list[str], full: bool, width: str) -> None:
    # The seed's own commit is gone: every view links where its message is at v0.20.1; --full also names the
    # record's own URL, said to lead nowhere, as text.
    url = seed_record()["messageVariants"][0]["githubUrl"]
    out = cli(*fmt, "--width", width, *(["--full"] if full else []), "--no-source", "--file", str(LEAF)).stdout
    lines = re.sub(r"\x1b\]8;[^\x1b]*\x1b\\\\|\x1b\[[0-9;]*m", "", out).split("\n")
    assert any(url in line for line in lines), "the URL on one line, never wrapped or cut"
    if "rich" in fmt:
        assert f";{url}\x1b\\" in out, "and the terminal's hyperlink to it"
    if full:
        assert "not in the repository's history" in " ".join(out.split())


@pytest.mark.parametrize("fmt", ["plain", "markdown"])
def test_an_exception_class_alone_is_explained_by_its_class_record_named_by_its_class(cli, fmt: str) -> None:
    # `AssertionError` typed alone, or a bare `assert x` failing: no message, so no empty message row,
    # and the class record is named by its class, not by its example message.
    out = cli("--format", fmt, "--no-source", "AssertionError").stdout
    assert "the Python record for AssertionError, class-level (its exception class alone)" in out
    assert "```text\n\n```" not in out
    if fmt == "plain":
        assert out.split("\n")[1].startswith("  matched:"), out
    keyed = cli("--format", "plain", "--no-source", "KeyError: 'lr'").stdout
    assert "the Python record for KeyError" in keyed and 'learning_rate"' not in keyed.split("why:")[0]
