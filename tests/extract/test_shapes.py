"""The shapes of issue 24 (items 3 and 5) that once gave no event: each read as an error, its look-alikes left alone."""

from __future__ import annotations

from leafexplain.extract import events_in, finish
from leafexplain.models import ErrorEvent
from leafexplain.session import explain
from tests.conftest import load_bundled_matcher


def extract_events(text: str) -> list[ErrorEvent]:
    return finish(events_in(text))


def no_events(text: str) -> bool:
    """Nothing found, not even a guess: text that only looks like one of the shapes."""
    return [e for e in finish(events_in(text, bare=False)) if not e.tentative] == []


# VS Code's debugger popup


def test_vscode_popup_is_an_exception_with_its_message_and_frames() -> None:
    text = (
        "Exception has occurred: ValueError       (note: full exception trace is shown but execution is paused at: f)\n"
        "invalid literal for int() with base 10: 'a'\n"
        '  File "/home/me/app.py", line 2, in parse\n'
        "    return int(text)\n"
        '  File "/home/me/app.py", line 5, in <module>\n'
        '    parse("a")\n'
    )
    [event] = extract_events(text)
    assert (event.extractor, event.error_type) == ("python-debugger", "ValueError")
    assert event.message == "invalid literal for int() with base 10: 'a'"
    # The popup lists the innermost frame first: its place is the innermost frame.
    assert (event.location.function, event.location.line) == ("parse", 2)
    assert event.location.code == "return int(text)"


def test_vscode_popup_in_other_locales_and_with_no_message() -> None:
    for header in ("Une exception s'est produite : ", "发生异常: ", "Se produjo una excepción: "):
        [event] = extract_events(f"{header}KeyError\n'user'\n")
        assert (event.error_type, event.message) == ("KeyError", "'user'")
    [bare] = extract_events("Exception has occurred: StopIteration\n")
    assert (bare.error_type, bare.message) == ("StopIteration", "")
    assert no_events("The popup said Exception has occurred: KeyError when I ran it\n")


# The OS-error rule


def test_an_os_error_in_another_locale_is_read_in_english_and_finds_its_record() -> None:
    text = "FileNotFoundError: [Errno 2] Aucun fichier ou dossier de ce type: 'data.csv'\n"
    [event] = extract_events(text)
    assert event.message == "[Errno 2] No such file or directory: 'data.csv'"
    report = explain(text.encode(), load_bundled_matcher())
    assert report.findings[0].best.record.errorClass == "FileNotFoundError"
    # The class and the errno must agree; an errno with no English known stays as it was.
    [other] = extract_events("FileNotFoundError: [Errno 13] Keine Berechtigung: 'x'\n")
    assert other.message == "[Errno 13] Keine Berechtigung: 'x'"
    [unknown] = extract_events("OSError: [Errno 95] Opération non supportée\n")
    assert unknown.message == "[Errno 95] Opération non supportée"


def test_a_windows_error_is_read_as_the_errno_it_stands_for_in_any_language() -> None:
    """`[WinError N]` (Windows' own code, in the language of the Windows that printed it) is the errno CPython
    makes of it: the same error as Linux's `[Errno N]`, found by that wording's record."""
    text = "FileNotFoundError: [WinError 2] 系统找不到指定的文件。: 'weights.pt'\n"
    [event] = extract_events(text)
    assert event.message == "[Errno 2] No such file or directory: 'weights.pt'"
    assert explain(text.encode(), load_bundled_matcher()).findings[0].best.record.errorClass == "FileNotFoundError"
    [refused] = extract_events("ConnectionRefusedError: [WinError 10061] 由于目标计算机积极拒绝，无法连接。\n")
    assert refused.message == "[Errno 111] Connection refused"
    [lower] = extract_events("PermissionError: [winerror 5] 拒绝访问。: 'C:\\\\x'\n")
    assert lower.message.startswith("[Errno 13] Permission denied")
    # A code with no errno known, or one its class disagrees with, stays as it was.
    [other] = extract_events("OSError: [WinError 1455] 页面文件太小，无法完成操作。\n")
    assert other.message == "[WinError 1455] 页面文件太小，无法完成操作。"
    [wrong] = extract_events("FileNotFoundError: [WinError 5] 拒绝访问。\n")
    assert wrong.message == "[WinError 5] 拒绝访问。"


# wasm's console panic hook, a panic re-logged


def test_a_panic_with_no_thread_in_both_forms() -> None:
    [old] = extract_events(
        "panicked at 'expected a canvas', src/web.rs:774:18\n\nStack:\n\nError\n    at imports.wbg\n"
    )
    assert (old.error_type, old.message, old.location.line, old.thread) == ("panic", "expected a canvas", 774, None)
    [new] = extract_events("panicked at src/lib.rs:10:5:\nindex out of bounds: the len is 1 but the index is 3\n")
    assert new.message == "index out of bounds: the len is 1 but the index is 3" and new.location.line == 10
    [unnamed] = extract_events("thread panicked at src/lib.rs:3:9:\nboom\n")
    assert unnamed.message == "boom"
    assert no_events("The app panicked at startup, and panicked at 'random' times after that.\n")


def test_a_panic_relogged_by_a_logger_keeps_the_message_after_its_header() -> None:
    text = (
        "2024-05-01T10:00:00.123Z ERROR burn_train::learner::application_logger: "
        "PANIC => panicked at src/main.rs:9:5:\n"
        "Tensor shapes do not match\n"
        "2024-05-01T10:00:00.124Z INFO shutting down\n"
    )
    [event] = extract_events(text)
    assert (event.message, event.location.line) == ("Tensor shapes do not match", 9)
    safari = (
        "[Error] panicked at 'wgpu error: Validation Error\n\nCaused by:\n    In Device::create\n', src/direct.rs:3:5\n"
    )
    [wgpu] = extract_events(safari)
    assert wgpu.message.splitlines() == ["wgpu error: Validation Error", "", "Caused by:", "    In Device::create"]


def test_wgpu_causes_after_a_blank_line_stay_in_the_panic_message() -> None:
    text = (
        "thread 'main' panicked at src/backend/wgpu_core.rs:3411:5:\n"
        "wgpu error: Validation Error\n\nCaused by:\n    In Device::create_bind_group\n\n"
        "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n"
    )
    [event] = extract_events(text)
    assert event.message.endswith("Caused by:\n    In Device::create_bind_group")


# Error chains: anyhow, eyre, color-eyre, human-panic


def test_an_anyhow_chain_is_each_cause_innermost_first() -> None:
    text = (
        "Error: failed to load the model\n\nCaused by:\n"
        "    0: cannot read weights.bin\n    1: No such file or directory (os error 2)\n"
    )
    events = extract_events(text)
    assert [e.message for e in events] == [
        "No such file or directory (os error 2)",
        "cannot read weights.bin",
        "failed to load the model",
    ]
    assert [e.chained for e in events] == ["cause", "cause", None]
    assert {e.extractor for e in events} == {"rust-error-chain"} and {e.line_number for e in events} == {1}
    single = extract_events("Error: failed to read config\n\nCaused by:\n    Permission denied (os error 13)\n")
    assert [e.message for e in single] == ["Permission denied (os error 13)", "failed to read config"]


def test_an_eyre_report_with_its_location() -> None:
    text = "Error: \n   0: Failed to read configuration file.\n   1: missing field `name`\n\n"
    text += "Location:\n   src/main.rs:12\n"
    events = extract_events(text)
    assert [e.message for e in events] == ["missing field `name`", "Failed to read configuration file."]
    assert (events[-1].location.file, events[-1].location.line) == ("src/main.rs", 12)


def test_chains_that_are_not_a_programs_error() -> None:
    # Java's `Caused by: ...` on one line, cargo's own report of a build.
    assert no_events("Caused by: the network going down\n\tat a.b(C.java:1)\n")
    assert no_events("error: failed to run custom build command for `x`\n\nCaused by:\n  process didn't exit\n")


def test_color_eyre_panic_report() -> None:
    text = (
        "The application panicked (crashed).\nMessage:  explicit panic\nLocation: src/main.rs:2\n\n"
        "  ━━━━━━━━━━━━━━━━━━━━━━ BACKTRACE ━━━━━━━━━━━━━━━━━━━━━━\n"
        "                                ⋮ 8 frames hidden ⋮\n"
        "  10: demo::g::hbcd4195430211455\n      at /tmp/demo/src/main.rs:2\n\n"
        "Run with COLORBT_SHOW_HIDDEN=1 environment variable to disable frame filtering.\n"
    )
    [event] = extract_events(text)
    assert (event.extractor, event.message) == ("rust-color-eyre", "explicit panic")
    assert (event.location.file, event.location.line) == ("src/main.rs", 2) and event.user_frame.line == 2
    assert [f.function for f in event.frames] == ["demo::g::hbcd4195430211455"]


def test_human_panic_report_and_the_file_it_names() -> None:
    text = (
        "Well, this is embarrassing.\n\n"
        "demo had a problem and crashed. To help us diagnose the problem you can send us a crash report.\n\n"
        'We have generated a report file at "/tmp/report-1.toml". Submit an issue or email with the subject of '
        '"demo Crash Report" and include the report as an attachment.\n\nThank you kindly!\n\n'
        'name = "demo"\nexplanation = """\nPanic occurred in file \'src/main.rs\' at line 7\n"""\n'
        'cause = "called `Option::unwrap()` on a `None` value"\n'
    )
    [event] = extract_events(text)
    assert (event.extractor, event.report) == ("rust-human-panic", "/tmp/report-1.toml")
    assert event.message == "called `Option::unwrap()` on a `None` value"
    assert (event.location.file, event.location.line) == ("src/main.rs", 7)


# JAX, torch.compile, Python 2, absl


def test_jax_wrappers_and_notes_are_not_errors_of_their_own() -> None:
    text = (
        "jax.errors.SimplifiedTraceback: For simplicity, JAX has removed its internal frames from the traceback of "
        "the following exception. Set JAX_TRACEBACK_FILTERING=off to include these.\n\n"
        "The above exception was the direct cause of the following exception:\n\n"
        'Traceback (most recent call last):\n  File "a.py", line 3, in <module>\n    f(1.)\n'
        "jax.errors.TracerBoolConversionError: Attempted boolean conversion of traced array\n"
    )
    [event] = extract_events(text)
    assert event.error_type == "jax.errors.TracerBoolConversionError"
    unfiltered = (
        'Traceback (most recent call last):\n  File "a.py", line 3, in <module>\n    f(1.)\n'
        "jax._src.traceback_util.UnfilteredStackTrace: jax._src.errors.TracerBoolConversionError: Attempted\n\n"
        "The stack trace below excludes JAX-internal frames.\n"
        "The preceding is the original exception that occurred, unmodified.\n"
    )
    [carried] = extract_events(unfiltered)
    assert (carried.error_type, carried.message) == ("jax._src.errors.TracerBoolConversionError", "Attempted")


def test_a_library_class_carrying_a_nested_exception() -> None:
    text = "torch._dynamo.exc.BackendCompilerFailed: backend='inductor' raised:\nRuntimeError: ptxas failed\n"
    events = extract_events(text)
    assert [(e.error_type, e.message, e.chained) for e in events] == [
        ("RuntimeError", "ptxas failed", "cause"),
        ("torch._dynamo.exc.BackendCompilerFailed", "backend='inductor' raised:", None),
    ]
    in_traceback = 'Traceback (most recent call last):\n  File "a.py", line 1, in <module>\n    f()\n' + text
    assert [(e.error_type, e.chained) for e in extract_events(in_traceback)] == [
        ("RuntimeError", "cause"),
        ("torch._dynamo.exc.BackendCompilerFailed", None),
    ]
    # A logger's name before a colon is no class.
    assert no_events("uvicorn.error: Started server process\nhttpx.Client: closed\n")


def test_a_class_and_its_message_with_no_space_after_the_colon() -> None:
    [event] = extract_events("RuntimeError:CUDA error: device-side assert triggered\n")
    assert (event.error_type, event.message) == ("RuntimeError", "CUDA error: device-side assert triggered")
    assert no_events("see IoError::Other for the details\n")


def test_python2_exception_ignored() -> None:
    text = (
        "Exception AttributeError: \"'NoneType' object has no attribute 'close'\" in "
        "<bound method Pool.__del__ of <pool.Pool object at 0x7f>> ignored\n"
    )
    [event] = extract_events(text)
    assert (event.extractor, event.error_type) == ("python2-ignored", "AttributeError")
    assert event.message == "'NoneType' object has no attribute 'close'"


def test_absl_status_lines() -> None:
    [plain] = extract_events("INTERNAL: Failed to execute XLA Runtime executable: run time error\n")
    assert (plain.extractor, plain.message) == (
        "absl-status",
        "INTERNAL: Failed to execute XLA Runtime executable: run time error",
    )
    glog = "2024-07-17 11:40:54.103908: E external/xla/status_macros.cc:56] INVALID_ARGUMENT: bad shape\n"
    [logged] = extract_events(glog)
    assert logged.message == "INVALID_ARGUMENT: bad shape"
    [carried] = extract_events("jaxlib.xla_extension.XlaRuntimeError: INTERNAL: RET_CHECK failure\n")
    assert carried.error_type == "jaxlib.xla_extension.XlaRuntimeError"
    assert no_events("2024-07-17 11:40:54.103908: W external/xla/service.cc:5] NOT_FOUND: no cache, building\n")


# A markdown quote


def test_a_quoted_bare_message_goes_on_in_the_next_quoted_line() -> None:
    text = "> RuntimeError: Expected all tensors to be on the same device,\n> but found at least two devices\n>\n"
    [event] = extract_events(text)
    assert event.message == "Expected all tensors to be on the same device,\nbut found at least two devices"
    two = extract_events("> KeyError: 'a'\n> ValueError: b\n")
    assert [e.error_type for e in two] == ["KeyError", "ValueError"]
