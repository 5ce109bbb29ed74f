"""Fatal ends (extract/fatal.py): a run that ends without a panic or a traceback is still an error, and a run
without one (a green test run, a training log, a sentence about a segfault) still has none."""

from __future__ import annotations

import pytest

from leafexplain import session
from leafexplain.extract import events_in, finish
from leafexplain.models import ErrorEvent, Limits
from tests.conftest import OUTPUTS


def extract_events(text: str) -> list[ErrorEvent]:
    return finish(events_in(text))


def test_cpp_terminate_gives_the_type_and_the_message() -> None:
    text = (
        "loading checkpoint\n"
        "terminate called after throwing an instance of 'std::out_of_range'\n"
        "  what():  vector::_M_range_check: __n (which is 512) >= this->size() (which is 512)\n"
        "Aborted (core dumped)\n"
    )
    [event] = extract_events(text)  # the shell's `Aborted` is the terminate's own end: no second event
    assert (event.language, event.error_type, event.extractor) == ("unknown", "std::out_of_range", "cpp-terminate")
    assert event.message == "vector::_M_range_check: __n (which is 512) >= this->size() (which is 512)"
    assert event.line_number == 2 and not event.tentative


def test_a_what_over_several_lines_ends_at_torchs_trailer_and_at_a_launchers_line() -> None:
    torch = (
        "terminate called after throwing an instance of 'c10::Error'\n"
        "  what():  CUDA error: device-side assert triggered\n"
        "CUDA kernel errors might be asynchronously reported at some other API call.\n"
        "Exception raised from c10_cuda_check_implementation at CUDAException.cpp:44 (most recent call first):\n"
        "frame #0: c10::Error::Error(c10::SourceLocation, std::string) + 0x57 (0x7f in libc10.so)\n"
    )
    [event] = extract_events(torch)
    assert event.message.splitlines() == [
        "CUDA error: device-side assert triggered",
        "CUDA kernel errors might be asynchronously reported at some other API call.",
    ]
    ros = (
        "terminate called after throwing an instance of 'std::out_of_range'\n"
        "  what():  vector::_M_range_check: __n (which is 3) >= this->size() (which is 1)\n"
        "[calib_node-2] process has died [pid 9511, exit code -6]\n"
    )
    [event] = extract_events(ros)
    assert "process has died" not in event.message


def test_terminate_without_an_active_exception() -> None:
    [event] = extract_events("terminate called without an active exception\nAborted (core dumped)\n")
    assert (event.error_type, event.message) == ("terminate", "terminate called without an active exception")


def test_a_cut_short_what_is_the_events_message(bundled_matcher) -> None:
    """Batch 6's NCCL watchdog paste, which ends inside its `what():`: the message is the `what():`. Its record
    is not found (a known miss of batch 6: the message is cut before the wording's own words, after a
    wrapper that says the wording's first word once already)."""
    path = OUTPUTS.parent / "pastes" / "batch6" / "cases" / "torch-nccl-watchdog-terminate-what-2024-1.txt"
    report = session.explain(path.read_bytes(), bundled_matcher, Limits(), pasted=True)
    [finding] = report.findings
    assert finding.event.error_type == "c10::DistBackendError"
    assert finding.event.message.startswith("[PG 1 Rank 1] Process group watchdog thread terminated")


DUMP_311 = (OUTPUTS / "fatal" / "python-faulthandler-segfault.txt").read_text()


def test_faulthandler_dump_is_one_event_at_the_users_frame() -> None:
    [event] = extract_events(DUMP_311)  # the shell's `Segmentation fault` repeats the dump: one event
    assert (event.language, event.error_type, event.message) == ("python", "Fatal Python error", "Segmentation fault")
    assert [f.function for f in event.frames] == ["string_at", "read_header", "<module>"]
    assert event.user_frame.file.endswith("/fatal/crash.py") and event.user_frame.line == 5


def test_faulthandler_of_python_312_and_later() -> None:
    """3.12+ may name the thread (`[name]`), print the C stack (3.14) and the extension modules."""
    text = (
        "Fatal Python error: Bus error\n"
        "\n"
        "Thread 0x00007f3a1c9ff6c0 [pt_autograd_0] (most recent call first):\n"
        '  File "/usr/lib/python3/site-packages/torch/autograd/graph.py", line 823 in _engine_run_backward\n'
        "\n"
        "Current thread 0x00007f3a2b7fe740 [python3] (most recent call first):\n"
        '  File "/usr/lib/python3/site-packages/numpy/_core/fromnumeric.py", line 57 in _wrapfunc\n'
        '  File "/home/me/train.py", line 41 in load_batch\n'
        '  File "/home/me/train.py", line 90 in <module>\n'
        "\n"
        "Current thread's C stack trace (most recent call first):\n"
        '  Binary file "/usr/bin/python3.14", at _Py_DumpStack+0x31 [0x5a9c3c]\n'
        "  <truncated rest of calling stack>\n"
        "\n"
        "Extension modules: numpy._core._multiarray_umath, torch._C (total: 2)\n"
        "Bus error (core dumped)\n"
    )
    [event] = extract_events(text)
    assert event.message == "Bus error" and len(event.frames) == 3  # the current thread's only
    assert (event.user_frame.file, event.user_frame.line, event.user_frame.function) == (
        "/home/me/train.py",
        41,
        "load_batch",
    )


def test_terminate_then_faulthandler_aborted_is_one_event_with_the_python_frames() -> None:
    text = (
        "terminate called after throwing an instance of 'c10::Error'\n"
        "  what():  CUDA error: an illegal memory access was encountered\n"
        "Fatal Python error: Aborted\n"
        "\n"
        "Current thread 0x00007f3a2b7fe740 (most recent call first):\n"
        '  File "/home/me/train.py", line 12 in step\n'
        '  File "/home/me/train.py", line 30 in <module>\n'
        "Aborted (core dumped)\n"
    )
    [event] = extract_events(text)
    assert event.error_type == "c10::Error" and event.message.startswith("CUDA error: an illegal memory access")
    assert event.user_frame.function == "step" and len(event.frames) == 2


@pytest.mark.parametrize(
    "line",
    [
        "fatal runtime error: Rust cannot catch foreign exceptions",
        "thread panicked while processing panic. aborting.",
        "thread caused non-unwinding panic. aborting.",
    ],
)
def test_rust_aborts_with_no_panic_before_them_are_events(line: str) -> None:
    [event] = extract_events(f"{line}\nAborted (core dumped)\n")  # the shell's line is the abort's own end
    assert (event.language, event.error_type, event.message) == ("rust", "abort", line)


def test_a_rust_abort_that_ends_a_panic_is_that_panics_end() -> None:
    text = (OUTPUTS / "fatal" / "rust-non-unwinding-panic.txt").read_text()
    events = extract_events(text)
    assert [e.error_type for e in events] == ["panic", "panic"]
    assert events[-1].message == "panic in a function that cannot unwind"  # not the abort nor the shell's line
    overflow = extract_events((OUTPUTS / "fatal" / "rust-stack-overflow.txt").read_text())
    assert [(e.error_type, e.message) for e in overflow] == [("abort", "thread 'main' has overflowed its stack")]


@pytest.mark.parametrize(
    ("line", "signal", "words"),
    [
        ("Segmentation fault (core dumped)", "SIGSEGV", "Segmentation fault (core dumped)"),
        ("Segmentation fault", "SIGSEGV", "Segmentation fault"),
        ("Killed", "SIGKILL", "Killed"),
        ("Aborted (core dumped)", "SIGABRT", "Aborted (core dumped)"),
        ("Bus error (core dumped)", "SIGBUS", "Bus error (core dumped)"),
        ("Illegal instruction (core dumped)", "SIGILL", "Illegal instruction (core dumped)"),
        ("bash: line 1:  4242 Killed                  python train.py", "SIGKILL", "Killed"),
        ("Segmentation fault: 11", "SIGSEGV", "Segmentation fault"),  # macOS
        ("Abort trap: 6", "SIGABRT", "Abort trap"),
        ("Killed: 9", "SIGKILL", "Killed"),
        ("./run.sh: line 3: 12345 Segmentation fault      (core dumped) ./prog", "SIGSEGV", None),
        ("zsh: segmentation fault (core dumped)  ./a.out", "SIGSEGV", "segmentation fault (core dumped)"),
        ("[1]    3950410 abort (core dumped)  ./speed_benchmark 1000000000 16", "SIGABRT", None),
        (
            "error: process didn't exit successfully: `target/debug/a` (signal: 11, SIGSEGV: invalid memory reference)",
            "SIGSEGV",
            "SIGSEGV: invalid memory reference",
        ),
    ],
)
def test_a_shells_signal_line_is_an_event_naming_the_signal(line: str, signal: str, words: str | None) -> None:
    [event] = extract_events(f"epoch 1/10 loss=0.31\nepoch 2/10 loss=0.27\n{line}\n")
    assert (event.language, event.error_type, event.extractor) == ("unknown", signal, "shell-signal")
    assert words is None or event.message == words
    assert event.line_number == 3


@pytest.mark.parametrize(
    "text",
    [
        "It crashes with a Segmentation fault (core dumped) after the first epoch.\n",
        "The job was Killed by the scheduler, so I restarted it.\n",
        "Aborted (core dumped) is all it prints, any idea?\n",
        "Segmentation fault handler installed\n",
        "Aborted!\n",  # click's words for a prompt left with Ctrl-C
        "     Running `target/debug/app`\nserving on :8080\nKilled by user request\n",
    ],
)
def test_words_about_a_signal_are_not_a_shells_line(text: str) -> None:
    assert [e for e in extract_events(text) if e.extractor == "shell-signal"] == []


def test_a_signal_after_cargos_progress_is_still_the_runs_end() -> None:
    text = "    Finished `dev` profile [unoptimized + debuginfo] target(s) in 0.01s\n     Running `target/debug/app`\n"
    [event] = extract_events(text + "Segmentation fault (core dumped)\n")
    assert event.error_type == "SIGSEGV"
    [event] = extract_events(text + "Aborted (core dumped)\n")
    assert event.error_type == "SIGABRT"


PASSING = {
    "cargo test": (
        "   Compiling app v0.1.0 (/tmp/app)\n"
        "    Finished `test` profile [unoptimized + debuginfo] target(s) in 0.52s\n"
        "     Running unittests src/lib.rs (target/debug/deps/app-5f0c4e2d1b)\n\n"
        "running 2 tests\ntest tests::adds ... ok\ntest tests::aborts_cleanly ... ok\n\n"
        "test result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n"
    ),
    "pytest": (
        "============================= test session starts ==============================\n"
        "platform linux -- Python 3.11.7, pytest-8.3.4, pluggy-1.5.0\n"
        "collected 3 items\n\n"
        "tests/test_crash_handling.py ...                                         [100%]\n\n"
        "============================== 3 passed in 0.04s ===============================\n"
    ),
    "a training log": (
        "[2026-12-01 10:00:01] epoch 1/3 step 100 loss=2.31 lr=3e-4\n"
        "[2026-12-01 10:00:09] worker 3 killed after timeout, restarting\n"
        "[2026-12-01 10:00:15] epoch 2/3 step 200 loss=1.87 lr=3e-4\n"
        "[2026-12-01 10:00:21] saved checkpoint to runs/7/ckpt-200.pt\n"
    ),
}


@pytest.mark.parametrize("name", sorted(PASSING))
def test_a_run_without_an_error_still_has_none(name: str, bundled_matcher) -> None:
    report = session.explain(PASSING[name].encode(), bundled_matcher, Limits(), pasted=True)
    assert report.findings == () and report.exit_status == 0


# (A Rust double panic was one until std's `panic in a destructor during cleanup` got its record: see expected.json.)
@pytest.mark.parametrize("name", ["python-faulthandler-segfault", "cpp-terminate-runtime-error", "shell-killed"])
def test_a_fatal_end_without_a_record_is_an_unknown_error_never_no_error(name: str, bundled_matcher) -> None:
    report = session.explain((OUTPUTS / "fatal" / f"{name}.txt").read_bytes(), bundled_matcher, Limits())
    assert report.findings and report.exit_status == 1


def test_a_long_log_that_ends_killed_is_read_to_its_end(bundled_matcher) -> None:
    """A log over 1 MiB is read in windows around the words an error has (intake/stream.py): a fatal end's
    words are among them, so the `Killed` that ends a long training log is found."""
    log = "".join(f"epoch 1 step {n} loss=0.{n % 97:02d}\n" for n in range(60_000)) + "Killed\n"
    assert len(log) > 1 << 20
    report = session.explain(log.encode(), bundled_matcher, Limits(), pasted=False)
    assert [f.event.error_type for f in report.findings] == ["SIGKILL"] and report.exit_status == 1
