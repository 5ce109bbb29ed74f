"""The extractors, called directly on text: every format they promise, and nothing from noise."""

from __future__ import annotations

from leafexplain.extract import events_in, finish
from leafexplain.models import ErrorEvent
from leafexplain.text import normalize
from tests.conftest import OUTPUTS


def extract_events(text: str) -> list[ErrorEvent]:
    """Every event in a whole text, as the pipeline finds them: in order, identical ones grouped."""
    return finish(events_in(text))


SEED = "Can't convert a non leaf tensor into a tracked tensor"


def test_rust_headers_of_every_release() -> None:
    texts = [
        f"thread 'main' (12869) panicked at src/main.rs:1:92:\n{SEED}\n",
        f"thread 'main' panicked at src/main.rs:1:92:\n{SEED}\n",
        f"thread 'main' panicked at '{SEED}', src/main.rs:1:92\n",
        f"thread \u2018main\u2019 panicked at \u2018{SEED}\u2019, src/main.rs:1:92\n",
    ]
    for text in texts:
        [event] = extract_events(normalize(text))
        assert event.language == "rust" and event.error_type == "panic"
        assert event.message.replace("\u2019", "'") == SEED or event.message == SEED
        assert (event.location.file, event.location.line, event.location.column) == ("src/main.rs", 1, 92)


def test_old_header_with_a_message_over_several_lines() -> None:
    text = (
        "thread 'main' panicked at 'assertion failed: `(left == right)`\n  left: `1`,\n right: `2`', src/lib.rs:4:5\n"
        "note: run with `RUST_BACKTRACE=1`\n"
    )
    [event] = extract_events(text)
    assert event.message.splitlines() == ["assertion failed: `(left == right)`", "  left: `1`,", " right: `2`"]
    assert event.location.line == 4
    # Before Rust 1.42 a panic inside a std macro named the macro as its place, with a space in it.
    [macro] = extract_events(text.replace("src/lib.rs:4:5", "<::std::macros::panic macros>:5:6"))
    assert macro.message == event.message and (macro.location.file, macro.location.line) == (
        "<::std::macros::panic macros>",
        5,
    )


def test_thread_names_and_tests() -> None:
    text = (
        "---- tests::it_fails stdout ----\n\nthread 'tests::it_fails' (9) panicked at src/lib.rs:9:9:\nboom\n\n"
        "thread '<unnamed>' (10) panicked at src/main.rs:3:3:\nworker died\n"
    )
    first, second = extract_events(text)
    assert (first.thread, first.test, first.message) == ("tests::it_fails", "tests::it_fails", "boom")
    # A thread a test spawned panics inside that test's section of the output.
    assert (second.thread, second.test, second.message) == ("<unnamed>", "tests::it_fails", "worker died")


def test_a_named_thread_is_a_thread_and_a_test_is_a_test() -> None:
    # A program's own worker thread, outside any test harness: a thread, never a test.
    [worker] = extract_events("thread 'worker-1' (7) panicked at src/main.rs:3:3:\nqueue closed\n")
    assert (worker.thread, worker.test) == ("worker-1", None)
    # A worker a test spawned: the test is the section's, the thread its own.
    text = (
        "running 1 test\ntest tests::pool ... FAILED\n\nfailures:\n\n---- tests::pool stdout ----\n\n"
        "thread 'worker-1' (8) panicked at src/pool.rs:9:9:\nqueue closed\n\n\nfailures:\n    tests::pool\n\n"
        "test result: FAILED. 0 passed; 1 failed\n\n"
        "thread 'worker-2' (9) panicked at src/main.rs:4:4:\nqueue closed again\n"
    )
    in_test, after = extract_events(text)
    assert (in_test.thread, in_test.test) == ("worker-1", "tests::pool")
    assert (after.thread, after.test) == ("worker-2", None), "the harness's output ended: a thread again"
    # `cargo test -- --nocapture` prints no sections: the harness names each test's thread after it.
    [nocapture] = extract_events("running 1 test\nthread 'tests::pool' (8) panicked at src/pool.rs:9:9:\nboom\n")
    assert (nocapture.thread, nocapture.test) == ("tests::pool", "tests::pool")


def test_backtrace_frames_and_user_frame() -> None:
    [event] = extract_events((OUTPUTS / "rust" / "cargo-run-backtrace-full.txt").read_text())
    assert len(event.frames) > 5 and event.frames[0].file.startswith("/rustc/")
    assert event.user_frame.function.startswith("trainer::main")


def test_identical_panics_are_grouped() -> None:
    text = "thread 'a' (1) panicked at src/x.rs:1:1:\nsame\n\nthread 'b' (2) panicked at src/x.rs:1:1:\nsame\n"
    [event] = extract_events(text)
    assert event.count == 2


def test_python_traceback_frames_carets_and_user_frame() -> None:
    [event] = extract_events((OUTPUTS / "python" / "json-decode.txt").read_text())
    assert event.error_type == "json.decoder.JSONDecodeError"
    assert event.message == "Expecting value: line 1 column 1 (char 0)"
    assert event.frames[0].code == 'load_config("")'
    assert all(not (f.code or "").startswith("^") for f in event.frames)
    assert event.user_frame.file.endswith("json_decode.py") and event.user_frame.line == 7


def test_multi_line_message_and_repeated_frames() -> None:
    text = (
        'Traceback (most recent call last):\n  File "t.py", line 9, in <module>\n    net.load_state_dict(sd)\n'
        '  File "t.py", line 3, in f\n    f()\n  [Previous line repeated 2 more times]\n'
        'RuntimeError: Error(s) in loading state_dict for Net:\n\tMissing key(s) in state_dict: "fc.weight".\n'
    )
    [event] = extract_events(text)
    assert event.message == 'Error(s) in loading state_dict for Net:\n\tMissing key(s) in state_dict: "fc.weight".'
    assert len(event.frames) == 2


def test_chained_exceptions_are_marked() -> None:
    cause, final = extract_events((OUTPUTS / "python" / "chain-cause.txt").read_text())
    assert (cause.error_type, cause.chained) == ("KeyError", "cause")
    assert (final.error_type, final.chained) == ("ValueError", None)
    context, _ = extract_events((OUTPUTS / "python" / "chain-context.txt").read_text())
    assert context.chained == "context"


def test_exception_group_syntax_error_and_warning() -> None:
    group = extract_events((OUTPUTS / "python" / "exception-group.txt").read_text())
    assert [e.error_type for e in group] == ["ExceptionGroup", "ValueError", "TypeError"]
    [syntax] = extract_events((OUTPUTS / "python" / "syntax-error.txt").read_text())
    assert syntax.error_type == "SyntaxError" and syntax.location.line == 1
    [warning] = extract_events("/x/t.py:4: UserWarning: The .grad attribute of a Tensor that is not a leaf\n  y.grad\n")
    assert (warning.error_type, warning.location.line) == ("UserWarning", 4)


def test_prefixes_ansi_and_crlf() -> None:
    stamped = (OUTPUTS / "derived" / "ci-timestamps.txt").read_text()
    [event] = extract_events(stamped)
    assert event.message == "Expecting value: line 1 column 1 (char 0)" and len(event.frames) == 5
    with (OUTPUTS / "derived" / "ansi-crlf.txt").open(newline="") as handle:
        coloured = normalize(handle.read())
    assert "\x1b" not in coloured and "\r" not in coloured
    assert extract_events(coloured)[0].message == SEED
    ranked = extract_events(
        "[rank0]: Traceback (most recent call last):\n"
        '[rank0]:   File "a.py", line 1, in <module>\n'
        "[rank0]: ValueError: bad rank\n"
    )
    assert ranked[0].message == "bad rank" and ranked[0].frames[0].file == "a.py"


def test_bare_messages() -> None:
    [pasted] = extract_events(
        "so I got\nRuntimeError: a leaf Variable that requires grad is being used in an in-place operation.\nany idea?"
    )
    assert (pasted.language, pasted.error_type) == ("python", "RuntimeError")
    [bare] = extract_events(SEED)
    assert (bare.language, bare.message) == ("unknown", SEED)


def test_a_class_name_alone_and_a_lowercase_module_class_after_frames() -> None:
    [alone] = extract_events("AssertionError\n")
    assert (alone.language, alone.error_type, alone.message) == ("python", "AssertionError", "")
    frames = '  File "/usr/lib/python3.11/re/_parser.py", line 874, in _parse\n    raise source.error("x")\n'
    for line, kind in [
        ("re.error: missing ), unterminated subpattern", "re.error"),
        ("socket.timeout: timed out", "socket.timeout"),
    ]:
        [event] = extract_events(f"Traceback (most recent call last):\n{frames}{line}\n")
        assert (event.error_type, event.message) == (kind, line.split(": ", 1)[1])
    # Outside a traceback, a lowercase `name.attr: text` line is not an exception.
    assert extract_events("config.path: /etc/app\nlog.level: debug\n" * 25) == []


def test_noise_gives_nothing() -> None:
    assert extract_events("") == []
    assert extract_events("   Compiling foo v0.1.0\n" * 30) == []
    assert extract_events("test result: ok. 3 passed; 0 failed\n" * 25) == []


def test_pytest_blocks_and_summary() -> None:
    events = extract_events((OUTPUTS / "python" / "pytest-long.txt").read_text())
    assert [(e.test, e.error_type) for e in events] == [
        ("test_parses_config", "json.decoder.JSONDecodeError"),
        ("test_counts", "AssertionError"),
        ("test_ratio", "ZeroDivisionError"),
    ]
    assert events[0].location.file.endswith("decoder.py")


def test_pytest_long_and_short_reports_carry_the_code_of_each_frame(cli) -> None:
    # Your code is shown only when the file still holds the line the report printed: pytest prints it
    # marked with `>` (long report) or under the frame line (short report).
    for name in ("pytest-long.txt", "pytest-short.txt"):
        events = extract_events((OUTPUTS / "python" / name).read_text())
        assert [(e.test, e.user_frame.file, e.user_frame.line) for e in events] == [
            ("test_parses_config", "check_failing.py", 7),
            ("test_counts", "check_failing.py", 11),
            ("test_ratio", "check_failing.py", 16),
        ], name
        assert [e.user_frame.code for e in events] == [
            'assert json.loads("") == {}',
            "assert len([1, 2]) == 3",
            "assert total / parts == 1",
        ], name
        root = OUTPUTS.parent / "scenarios" / "python"
        out = cli("--format", "plain", "--root", str(root), "--file", str(OUTPUTS / "python" / name)).stdout
        assert "> 16 |     assert total / parts == 1" in out, out


def test_an_old_multi_line_panic_glued_to_its_test_line_keeps_all_its_lines() -> None:
    """Before Rust 1.73, `cargo test` printed a panicking test's name and the panic on one line; the rest of the
    message follows without that line's `test name ... ` in front."""
    text = (
        "running 2 tests\n"
        "test correctness::clone ... thread 'main' panicked at 'assertion failed: `(left == right)`\n"
        "  left: `0`,\n"
        " right: `1`', tests/arc.rs:245:13\n"
        "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n"
        "FAILED\n"
    )
    [event] = extract_events(text)
    assert event.message == "assertion failed: `(left == right)`\n  left: `0`,\n right: `1`"
    assert event.location is not None and (event.location.file, event.location.line) == ("tests/arc.rs", 245)


DOCTEST_VERBOSE = """Trying:
    to_int("4x2")
Expecting:
    Traceback (most recent call last):
        ...
    ValueError: invalid literal for int() with base 10: '4x2'
ok
1 items passed all tests:
   1 tests in convert
Test passed.
"""

DOCTEST_FAILED = """**********************************************************************
File "convert.py", line 5, in convert.to_int
Failed example:
    to_int("4x2")
Expected:
    Traceback (most recent call last):
        ...
    ValueError: invalid literal for int() with base 10: '4x2'
Got:
    Traceback (most recent call last):
      File "convert.py", line 9, in to_int
        return int(text) / 0
    ZeroDivisionError: division by zero
"""


def test_the_tracebacks_doctest_expects_are_not_errors_and_the_one_it_got_is() -> None:
    guesses = extract_events(DOCTEST_VERBOSE)  # a short text: what is left of it may be a pasted message
    assert all(e.tentative and "ValueError" not in e.message for e in guesses), guesses
    [event] = extract_events(DOCTEST_FAILED)
    assert (event.error_type, event.message) == ("ZeroDivisionError", "division by zero")


def test_a_message_ends_where_another_program_writes() -> None:
    """A traceback's last lines are followed by what comes next in a CI log or a launcher's output, often with no
    blank line between: a runner's own lines and timestamped log records are not the message's."""
    traceback = (
        "Traceback (most recent call last):\n"
        '  File "train.py", line 3, in <module>\n'
        "    json.loads(text)\n"
        "json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)\n"
    )
    for after in (
        "Error: Process completed with exit code 1.",  # GitHub Actions' step result
        "##[error]Process completed with exit code 1.",
        "ERROR: Job failed: exit code 1",  # GitLab
        "2026-11-30T12:00:01.123Z INFO uploading artifacts",
        "[2026-11-30 12:00:01,123] INFO rank 1 stopped",
        "E1130 12:00:01.123456 4242 torch/distributed/elastic/multiprocessing/api.py:881] failed (exitcode: 1)",
        "INFO:__main__:epoch 2 starting",  # the program went on after `logging.exception`
        "Epoch 2:  40%|████      | 4/10 [00:01<00:02,  2.95it/s]",
    ):
        [event] = extract_events(traceback + after + "\n")
        assert event.message == "Expecting value: line 1 column 1 (char 0)", after
    [event] = extract_events(traceback + "while reading config.json\n")
    assert event.message == "Expecting value: line 1 column 1 (char 0)\nwhile reading config.json"


def test_lines_that_look_like_another_programs_are_read_in_linear_time() -> None:
    """The tests for a progress bar or a log record run on every line of a message: a hostile line of 100,000
    `1%|` (a regex with `.*` between pipes would take minutes) is read at once, and is the message's own."""
    hostile = "1%|" * 100_000
    text = 'Traceback (most recent call last):\n  File "t.py", line 1, in <module>\nValueError: bad\n' + hostile + "\n"
    [event] = extract_events(text)
    assert event.message == "bad\n" + hostile
