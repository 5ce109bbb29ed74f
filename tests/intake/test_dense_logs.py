"""Logs dense with errors are read fast and read right: a line repeated a million times is one event with its
count, and the scanner's steps over dense hits give the windows that going hit by hit gives. (The speed itself is
measured by `python bench/hostile.py --only repeated`, not asserted: no timed tests.)"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from leafexplain.extract import events_in, finish
from leafexplain.intake import stream
from leafexplain.intake.stream import windows
from tests.hostile.test_properties import ERROR_LINES

GRAD = "RuntimeError: element 0 of tensors does not require grad and does not have a grad_fn"


def test_one_error_repeated_is_one_event_with_its_count(cli) -> None:
    lines = [GRAD] * 30_000 + ["    an indented line carries it on", GRAD, "ValueError: another", GRAD]
    result = cli("--format", "json", input="\n".join(lines) + "\n")
    counts = {(e["error_type"], e["message"]): e["count"] for e in json.loads(result.stdout)["events"]}
    assert counts[("RuntimeError", GRAD.split(": ", 1)[1])] == 30_001
    assert counts[("ValueError", "another")] == 1
    assert sum(counts.values()) == 30_003  # and the one that carried on over an indented line


def test_run_counts_a_repeated_error_too(cli, tmp_path) -> None:
    log = tmp_path / "log.txt"
    log.write_text((GRAD + "\n") * 40_000)
    result = cli.process("run", "--format", "json", "--", "cat", str(log))
    events = json.loads(result.stderr)["events"]
    assert [e["count"] for e in events] == [40_000]


dense_log = st.lists(
    st.one_of(st.sampled_from(ERROR_LINES), st.sampled_from(["step 1", "", "loss 0.5", "x" * 300])),
    min_size=200,
    max_size=1500,
).map("\n".join)


@settings(max_examples=60, deadline=None)
@given(dense_log, st.data())
def test_steps_over_dense_hits_give_the_windows_of_going_hit_by_hit(text: str, data: st.DataObject) -> None:
    raw = text.encode()
    cuts = sorted(data.draw(st.lists(st.integers(0, len(raw)), max_size=6)))
    pieces = [raw[a:b] for a, b in zip([0, *cuts], [*cuts, len(raw)], strict=True)]

    def scanned() -> list[tuple[int, str]]:
        return [(w.first_line, w.text) for w in windows(pieces, whole_input_bytes=16)]

    stepped = scanned()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(stream.WindowScanner, "_jump", lambda self, hit, stop, final: False)
        one_by_one = scanned()
    assert stepped == one_by_one
    found = finish([e for line, w in stepped for e in events_in(w, bare=False, first_line=line)])
    assert all(e.count >= 1 for e in found)


TRACEBACK = (
    "Traceback (most recent call last):\n"
    '  File "train.py", line 9, in <module>\n'
    "    loss.backward()\n"
    "RuntimeError: element 0 of tensors does not require grad and does not have a grad_fn\n"
)
PANIC = (
    "thread 'main' panicked at src/main.rs:4:26:\n"
    "index out of bounds: the len is 3 but the index is 5\n"
    "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n"
)


@pytest.mark.parametrize("block", [TRACEBACK, PANIC], ids=["traceback", "panic"])
def test_a_repeated_multi_line_error_is_one_event_across_window_boundaries(block: str) -> None:
    # Over MAX_WINDOW_BYTES: windows end before the last error that opens in them, none is cut in two.
    copies = (stream.MAX_WINDOW_BYTES * 2) // len(block) + 7
    data = (block * copies).encode()
    found = finish(
        [
            e
            for w in windows([data[i : i + 65536] for i in range(0, len(data), 65536)])
            for e in events_in(w.text, bare=False, first_line=w.first_line)
        ]
    )
    assert [(e.count, bool(e.message), e.line_number) for e in found] == [(copies, True, 1)]


def test_copies_read_without_a_parse_are_the_events_a_parse_gives(monkeypatch: pytest.MonkeyPatch) -> None:
    # Chained tracebacks and panics in a test harness, repeated and interleaved: the events of copies recognised as
    # copies are the events of parsing every one.
    chained = TRACEBACK + "\nThe above exception was the direct cause of the following exception:\n\n" + TRACEBACK
    harness = "---- tests::one stdout ----\n" + PANIC + "\ntest result: FAILED. 0 passed; 1 failed\n"
    text = (chained + "\n" + PANIC + "\n" + TRACEBACK + "\n" + harness) * 5 + (TRACEBACK + "\n") * 3 + PANIC * 3
    events = events_in(text, bare=False)
    from leafexplain.extract import common

    monkeypatch.setattr(common, "repeats", lambda lines, i, block: False)
    assert events == events_in(text, bare=False) and len(events) == 5 * 5 + 6
