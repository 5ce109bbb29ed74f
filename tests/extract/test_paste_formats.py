"""What pasting and logging do to error text, undone: each shape people paste in, found as the error it is."""

from __future__ import annotations

import json

from leafexplain.extract import events_in, finish
from leafexplain.extract.paste import unfold
from leafexplain.models import ErrorEvent
from leafexplain.text import normalize


def extract_events(text: str) -> list[ErrorEvent]:
    """Every event in a whole text, as the pipeline finds them: in order, identical ones grouped."""
    return finish(events_in(text))


FRAMES = 'Traceback (most recent call last):\n  File "train.py", line 9, in <module>\n    main()\n'


def test_a_paste_that_lost_its_first_character() -> None:
    [python] = extract_events("raceback (most recent call last):\n" + FRAMES.split("\n", 1)[1] + "untimeError: boom\n")
    assert (python.error_type, python.message, python.frames[0].file) == ("untimeError", "boom", "train.py")
    [rust] = extract_events("hread 'main' panicked at src/main.rs:2:5:\nattempt to add with overflow\n")
    assert (rust.language, rust.message, rust.thread) == ("rust", "attempt to add with overflow", "main")


def test_markdown_emphasis_and_quote_marks() -> None:
    bold = FRAMES + "**ImportError: cannot import name 'Imbox' from partially initialized module 'imbox'** (x.py)\n"
    [event] = extract_events(bold)
    assert event.error_type == "ImportError" and event.message.endswith("'imbox' (x.py)")
    [quoted] = extract_events("As soon as I run it:\n\n> RuntimeError: size mismatch, m1: [1 x 159], m2: [53 x 128]\n")
    assert (quoted.error_type, quoted.message) == ("RuntimeError", "size mismatch, m1: [1 x 159], m2: [53 x 128]")
    [ticks] = extract_events("it fails with `ValueError: too many values to unpack (expected 2)` every time\n")
    assert ticks.error_type == "ValueError" and ticks.message.startswith("too many values to unpack (expected 2)")
    # Emphasis opened on the exception line and closed on a later one.
    [italic] = extract_events("the run ends with:\n\n_IndexError: list index out of range\nrun.py:9: IndexError_\n")
    assert (italic.error_type, italic.message) == ("IndexError", "list index out of range")
    [named] = extract_events("_pickle.PicklingError: Can't pickle <function <lambda>>\n")
    assert named.error_type == "_pickle.PicklingError"


def test_a_stack_trace_logged_as_one_json_string() -> None:
    trace = FRAMES + "ValueError: bad shard id\n"
    log = "2026-01-02 INFO starting\n" + json.dumps({"level": "error", "exc": trace}) + "\n2026-01-02 INFO done\n"
    [event] = events_in(log)
    assert (event.error_type, event.message, event.line_number) == ("ValueError", "bad shard id", 2)
    assert event.frames[0].file == "train.py" and event.frames[0].line == 9


def test_a_logged_string_cut_before_its_start_keyword_is_still_unescaped() -> None:
    # A notebook's traceback stored as JSON (its colours escaped too), the paste starting inside the string.
    cell = (
        "er_lines()\\n\\u001b[32m--> \\u001b[39m\\u001b[32m481\\u001b[39m raise err\\n\\n"
        '\\u001b[31mHfHubHTTPError\\u001b[39m: 503 Server Error: Service Unavailable for url: https://hf.co/x"\n}\n'
    )
    [hub] = extract_events(cell)
    assert (hub.error_type, hub.message) == (
        "HfHubHTTPError",
        "503 Server Error: Service Unavailable for url: https://hf.co/x",
    )
    # cargo's JSON diagnostic, cut before its start: the rendered field holds the error as rustc printed it.
    rendered = (
        '"level":"note","spans":[]}],"rendered":"error[E0599]: no method named `m` found for type `u64` in the current'
        ' scope\\n  --> src/main.rs:5:10\\n   |\\nLL |     1u64.m();\\n   |          ^\\n\\n"}\n'
    )
    [rustc] = extract_events(rendered)
    assert (rustc.error_type, rustc.code) == ("compile", "E0599")
    assert rustc.message == "no method named `m` found for type `u64` in the current scope"
    # One escaped newline in a quoted string is not a logged trace: left as it is.
    line = 'print("ValueError: x\\n")'
    assert unfold([line]) == ([line], [0])


def test_html_entities_from_a_scraped_page() -> None:
    [event] = extract_events("RuntimeError: Can&#39;t call numpy() on Tensor that requires grad.\n")
    assert event.message == "Can't call numpy() on Tensor that requires grad."


def test_rust_aborts_and_errors_returned_from_main() -> None:
    overflow, alloc = extract_events(
        "thread 'main' (18055) has overflowed its stack\nfatal runtime error: stack overflow, aborting\n"
        "memory allocation of 70368744177664 bytes failed\n"
    )
    assert (overflow.language, overflow.error_type, overflow.thread) == ("rust", "abort", "main")
    assert overflow.message == "thread 'main' has overflowed its stack"
    assert alloc.message == "memory allocation of 70368744177664 bytes failed" and not alloc.tentative
    [main_error] = extract_events('Error: Os { code: 2, kind: NotFound, message: "No such file or directory" }\n')
    assert main_error.language == "rust" and main_error.tentative  # kept only when a record explains it


def test_a_warning_printed_at_exit_is_not_part_of_the_message() -> None:
    text = FRAMES + "RuntimeError: asyncio.run() cannot be called from a running event loop\n"
    text += "sys:1: RuntimeWarning: coroutine 'fetch' was never awaited\n"
    error, warning = extract_events(text)
    assert error.message == "asyncio.run() cannot be called from a running event loop"
    assert (warning.error_type, warning.tentative) == ("RuntimeWarning", True)


def test_an_empty_cause_before_the_real_error_is_a_guess() -> None:
    text = (
        FRAMES + "StopIteration\n\nThe above exception was the direct cause of the following exception:\n\n"
        + FRAMES + "RuntimeError: generator raised StopIteration\n"
    )  # fmt: skip
    cause, error = extract_events(text)
    assert (cause.error_type, cause.tentative, error.tentative) == ("StopIteration", True, False)


def test_paragraphs_are_looked_up_only_when_asked() -> None:
    text = "A module that was compiled using NumPy 1.x cannot be run in\nNumPy 2.0.0 as it may crash.\n\nthanks!\n"
    assert [e.extractor for e in events_in(text, bare=False)] == []
    found = events_in(text, bare=False, paragraphs=True)
    assert [(e.extractor, e.line_number, e.tentative) for e in found] == [
        ("paragraph", 1, True),
        ("paragraph", 4, True),
    ]


def test_a_raise_statement_a_traceback_quotes_is_code_not_a_paragraph() -> None:
    text = (
        "raise AttributeError(f\"module 'pandas' has no attribute '{name}'\")\n"
        "AttributeError: module 'pandas' has no attribute 'Dataframe'\n"
    )
    found = events_in(text, bare=False, paragraphs=True)
    assert [(e.extractor, e.error_type) for e in found] == [("python-bare", "AttributeError")]


def test_a_wording_in_pasted_prose_counts_where_it_stands_as_an_error(cli) -> None:
    """In text that is only a guess, a wording found counts where an error's message stands: opening
    its line (after a timestamp), after a label, quoted or in bold, after CJK text; not as words of a
    sentence, and not inside a value a program printed and went on."""
    explained = [
        "1999-01-02 03:04:05.678\tthread 'main' has overflowed its stack\n",
        "We saw this in the log: not implemented\nfrom the old backend.\n",
        "运行时报错！'NoneType' object is not subscriptable\n",
        "It says **not yet implemented** and stops.\n",
        'the job failed with "RefCell already borrowed" after an hour\n',
        # rustc's header opens its line: since the records for rustc's error codes, E0277's explains it
        "error[E0277]: the trait bound `Job: Serialize` is not satisfied\n"
        "   = help: the trait `Serialize` is not implemented for `Job`\n",
    ]
    for text in explained:
        out = json.loads(cli("--format", "json", "--no-source", input="notes\n\n" + text).stdout)
        assert [e["matches"][:1] != [] for e in out["events"]] == [True], text
    prose = ["reading 'abc' gave: Err(ParseIntError { kind: InvalidDigit }), so the default 8 is used\n"]
    for text in prose:
        quiet = cli("--format", "json", "--no-source", input="notes\n\n" + text)
        assert (quiet.returncode, json.loads(quiet.stdout)["events"]) == (0, []), text
    # A compile error is an error, not prose: explained by the records of its code only (E0277's), never by a
    # panic's record whose words are in its help line (`not implemented`).
    compiled = cli(
        "--format",
        "json",
        "--no-source",
        input="notes\n\nerror[E0277]: the trait bound `Job: Serialize` is not satisfied\n"
        "   = help: the trait `Serialize` is not implemented for `Job`\n",
    )
    [event] = json.loads(compiled.stdout)["events"]
    assert (event["error_type"], event["code"]) == ("compile", "E0277")
    assert [m["slug"][:5] for m in event["matches"]] == ["e0277"]


def test_an_error_line_redrawn_over_by_other_output_is_still_read() -> None:
    # In a terminal a progress bar or another thread's `\r` redraws the line; the log still holds the error.
    [python] = events_in(normalize(FRAMES + "ValueError: bad value\rprogress 100%\n"))
    assert (python.error_type, python.message.split("\n")[0]) == ("ValueError", "bad value")
    [rust] = events_in(
        normalize("thread 'main' panicked at src/main.rs:2:5:\rloading 3/9\nattempt to add with overflow\n")
    )
    assert rust.language == "rust" and "attempt to add with overflow" in rust.message
    # A progress bar alone keeps what stayed on screen: its last drawing, no error.
    assert normalize("Epoch 1:  50%|#####     |\rEpoch 1: 100%|##########|\nall good\n") == (
        "Epoch 1: 100%|##########|\nall good\n"
    )


def test_a_rust_panic_raised_through_pyo3_is_a_rust_panic() -> None:
    # polars, tokenizers and every PyO3 library: the panic's message in a Python exception of that name.
    text = 'pyo3_runtime.PanicException: called `Result::unwrap()` on an `Err` value: BudgetError("low")\n'
    [event] = events_in(FRAMES + text)
    assert (event.language, event.error_type) == ("rust", "pyo3_runtime.PanicException")
    assert event.message.startswith("called `Result::unwrap()` on an `Err` value")


def test_a_code_fence_on_the_errors_own_line_is_not_inline_code() -> None:
    [event] = events_in("```KeyError: `x` is not there```\n")
    assert (event.error_type, event.message) == ("KeyError", "`x` is not there")
    [fenced] = events_in("```pyo3_runtime.PanicException: called `Option::unwrap()` on a `None` value```\n")
    assert fenced.message == "called `Option::unwrap()` on a `None` value"
