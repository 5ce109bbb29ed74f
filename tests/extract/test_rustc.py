"""rustc's compile errors as events: each error diagnostic one event with its code, span and detail; warnings and
the summaries after the diagnostics no event at all."""

from __future__ import annotations

from leafexplain.extract import events_in, finish
from leafexplain.extract.rustc import diagnostic_header, span_line
from leafexplain.intake.collect import collect
from leafexplain.models import ErrorEvent
from leafexplain.text import normalize
from tests.conftest import OUTPUTS


def extract_events(text: str) -> list[ErrorEvent]:
    return finish(events_in(normalize(text)))


def corpus(name: str) -> str:
    return (OUTPUTS / "rust" / name).read_text(encoding="utf-8")


def test_a_cargo_build_with_borrow_errors_gives_one_event_per_error() -> None:
    moved, borrowed = extract_events(corpus("cargo-build-borrows.txt"))
    assert (moved.language, moved.error_type, moved.extractor, moved.code) == ("rust", "compile", "rustc", "E0382")
    assert moved.message == "borrow of moved value: `entries`"
    assert (moved.user_frame.file, moved.user_frame.line, moved.user_frame.column) == ("src/borrows.rs", 9, 46)
    assert moved.user_frame.code.strip() == 'println!("{archived} archived, {} left", entries.len());'
    assert moved.location == moved.user_frame and moved.line_number == 2
    assert moved.detail == (
        "move occurs because `entries` has type `Vec<i64>`, which does not implement the `Copy` trait",
        "value moved here",
        "value borrowed here after move",
        "note: consider changing this parameter type in function `archive` to borrow instead if owning the value "
        "isn't necessary",
        "this parameter takes ownership of the value",
        "in this function",
        "help: consider cloning the value if the performance cost is acceptable",
    )
    assert (borrowed.code, borrowed.user_frame.line) == ("E0502", 13)
    assert borrowed.message == "cannot borrow `pending` as mutable because it is also borrowed as immutable"
    assert borrowed.detail[-1] == "immutable borrow later used here"


def test_type_and_name_errors() -> None:
    events = extract_events(corpus("cargo-build-types.txt"))
    assert [(e.code, e.user_frame.line) for e in events] == [("E0425", 14), ("E0308", 13), ("E0599", 16)]
    assert events[1].detail[:2] == ("expected `usize`, found `i64`", "expected due to this")


def test_warnings_and_summaries_are_no_events() -> None:
    for name in ("cargo-build-warnings.txt", "cargo-test-warnings.txt"):
        assert extract_events(corpus(name)) == [], name
    text = corpus("cargo-build-borrows.txt")
    lines = text.splitlines()
    claimed = [False] * len(lines)
    from leafexplain.extract import rustc

    rustc.extract(lines, claimed)
    unclaimed = [line for line, taken in zip(lines, claimed, strict=True) if not taken and line.strip()]
    assert unclaimed == ["   Compiling ledger v0.1.0 (/tmp/leafexplain-corpus/rustc)"]  # the panics' extractor's


def test_an_error_without_a_code_is_an_event_when_rustc_points_at_the_code() -> None:
    text = (
        "error: expected `;`, found `foo`\n --> syn.rs:2:14\n  |\n2 |     let x = 3\n"
        "  |              ^ help: add `;` here\n"
        "3 |     foo!();\n  |     --- unexpected token\n\n"
        "error: cannot find macro `foo` in this scope\n --> syn.rs:3:5\n  |\n3 |     foo!();\n  |     ^^^\n\n"
        "error: aborting due to 2 previous errors\n\n"
    )
    syntax, macro = extract_events(text)
    assert (syntax.code, syntax.message, syntax.user_frame.line) == (None, "expected `;`, found `foo`", 2)
    assert syntax.detail == ("help: add `;` here", "unexpected token")
    assert (macro.code, macro.message, macro.detail) == (None, "cannot find macro `foo` in this scope", ())


def test_the_linkers_failure_is_an_event_without_a_place() -> None:
    text = (
        "   Compiling app v0.1.0 (/work/app)\n"
        "error: linking with `cc` failed: exit status: 1\n"
        '  |\n  = note: LC_ALL="C" PATH="/usr/bin" "cc" "-m64" "/tmp/rustcXYZ/symbols.o"\n'
        "  = note: /usr/bin/ld: cannot find -lssl: No such file or directory\n"
        "          collect2: error: ld returned 1 exit status\n\n"
        'error: could not compile `app` (bin "app") due to 1 previous error\n'
    )
    [linker] = extract_events(text)
    assert (linker.code, linker.location, linker.message) == (None, None, "linking with `cc` failed: exit status: 1")
    assert linker.detail[1] == "note: /usr/bin/ld: cannot find -lssl: No such file or directory"


def test_other_tools_error_lines_are_not_rustcs() -> None:
    texts = [
        "error: test failed, to rerun pass `--lib`\n",
        "error: subprocess-exited-with-error\n\n× python setup.py egg_info did not run successfully.\n",
        "error: could not compile `app` (lib) due to 2 previous errors\n",
        "warning: unused variable: `x`\n --> src/lib.rs:1:5\n",
        "parse error: unexpected token\n --> config.toml:3:1\n",
        "the error[E0308] was fixed in the last commit\n",
    ]
    for text in texts:
        assert [e for e in events_in(text, bare=False) if e.extractor == "rustc"] == [], text


def test_headers_and_spans() -> None:
    moved = (0, "error", "E0382", "borrow of moved value: `v`")
    assert diagnostic_header("error[E0382]: borrow of moved value: `v`") == moved
    assert diagnostic_header("2026-12-01T10:00:00.1Z error[E0599]: no method")[1:] == ("error", "E0599", "no method")
    assert diagnostic_header("warning: unused import: `std::fmt`")[1:3] == ("warning", None)
    assert diagnostic_header("my_error: nope") is None
    assert diagnostic_header("error[: broken") is None
    assert span_line("  --> src/main.rs:8:20").line == 8
    assert span_line("  --> C:\\work\\src\\main.rs:8:20").file == "C:\\work\\src\\main.rs"
    assert span_line("  --> src/main.rs") is None


def test_a_ci_log_prefix_is_taken_off_the_diagnostics_lines() -> None:
    stamp = "2026-12-01T10:00:{:02d}.0000000Z "
    lines = corpus("cargo-build-borrows.txt").splitlines()
    text = "".join(stamp.format(n) + line + "\n" for n, line in enumerate(lines))
    moved, borrowed = extract_events(text)
    assert (moved.code, moved.user_frame.line, borrowed.code) == ("E0382", 9, "E0502")
    assert "value moved here" in moved.detail


def test_a_large_cargo_log_is_read_for_its_compile_errors() -> None:
    """Over 1 MB the scanner reads windows around its keywords only: `error[E` and `error: ` are among them."""
    noise = "".join(f"   Compiling crate{n} v0.1.{n}\n" for n in range(60_000))
    text = noise + corpus("cargo-build-borrows.txt") + noise
    assert len(text) > 2 << 20
    events = collect(text.encode(), pasted=False).events
    assert [(e.code, e.user_frame.line) for e in events] == [("E0382", 9), ("E0502", 13)]
    assert events[0].line_number == 60_002


def test_diagnostics_as_json_give_the_events_the_printed_ones_give() -> None:
    """cargo's `--message-format=json` and rustc's `--error-format=json` (real runs of the same crate): each error
    is the event its printed diagnostic is, at the JSON line; warnings and the summaries are none."""
    for printed, as_json in (
        ("cargo-build-borrows.txt", "cargo-build-borrows-json.txt"),
        ("cargo-build-types.txt", "cargo-build-types-json.txt"),
        ("cargo-build-borrows.txt", "rustc-borrows-json.txt"),
    ):
        want = [(e.code, e.message, e.user_frame, e.detail) for e in extract_events(corpus(printed))]
        got = extract_events(corpus(as_json))
        assert [(e.code, e.message, e.user_frame, e.detail) for e in got] == want, as_json
        assert {e.extractor for e in got} == {"rustc-json"}
        lines = corpus(as_json).split("\n")
        assert all(lines[e.line_number - 1].lstrip().startswith("{") for e in got)
    assert extract_events(corpus("cargo-build-warnings-json.txt")) == []


def test_a_json_diagnostic_cut_short_still_names_its_message_and_code() -> None:
    line = corpus("rustc-borrows-json.txt").split("\n")[0]
    cut = "[00:42:43] " + line[: line.index('"explanation"') + 60]  # a CI log's line limit
    (event,) = extract_events(f"running the suite\n{cut}\n")
    assert (event.code, event.message, event.line_number) == ("E0382", "borrow of moved value: `entries`", 2)
    lint = extract_events('{"message":"unused variable","code":{"code":"unused_variables","expl')
    assert [e.error_type for e in lint] != ["compile"]  # a lint's code is no error code: a warning's, cut short


def test_a_diagnostic_whose_header_was_lost_in_the_copy() -> None:
    """The copy began a few characters late (`rror[E0382]: `), or after the header: the span and rustc's drawing
    still say it is a diagnostic, and the header's code, or the only one the summary names, is its code."""
    printed = corpus("cargo-build-borrows.txt")
    start = printed.index("error[E0382]")
    (event, _) = extract_events(printed[start + 1 :])
    assert (event.code, event.message, event.user_frame.line) == ("E0382", "borrow of moved value: `entries`", 9)
    # The header lost whole: the line above the span is its text, the summary's only code its code.
    types = corpus("cargo-build-types.txt")
    first = types[types.index("error[E0425]") :]
    body = first[first.index("\n") + 1 : first.index("\nerror")]
    summary = "\n\nFor more information about this error, try `rustc --explain E0425`.\n"
    (event,) = extract_events("cannot find value `balanse` in this scope\n" + body + summary)
    assert (event.code, event.message, event.user_frame.line) == (
        "E0425",
        "cannot find value `balanse` in this scope",
        14,
    )
    # Without a code anywhere, nothing says the lines were an error's rather than a warning's.
    assert [e.extractor for e in extract_events("cannot find value `balanse` in this scope\n" + body)] != ["rustc"]


def test_the_layout_of_rustc_before_1_12_span_first_code_last() -> None:
    old = (
        "   Compiling app v0.3.7 (file:///home/u/app)\n"
        "examples/example.rs:1:1: 1:1 error: missing lifetime specifier [E0106]\n"
        "examples/example.rs:1 #![feature(plugin)]\n"
        "                      ^\n"
        "examples/example.rs:1:1: 1:1 help: run `rustc --explain E0106` to see a detailed explanation\n"
        "src/lib.rs:4:9: 4:10 warning: unused variable: `x`, #[warn(unused_variables)] on by default\n"
        "src/lib.rs:7:5: 7:12 error: unresolved name `foo`\n"
    )
    first, second = extract_events(old)
    assert (first.code, first.message, first.location.file, first.location.line) == (
        "E0106",
        "missing lifetime specifier",
        "examples/example.rs",
        1,
    )
    assert (second.code, second.message, second.location.line, second.location.column) == (
        None,
        "unresolved name `foo`",
        7,
        5,
    )
    # Another tool's `file:line:col: error:` line is no old rustc's: it needs the span's end and a .rs file.
    assert [e for e in events_in("setup.cfg:3:1: error: bad option\n", bare=False) if e.extractor == "rustc"] == []
