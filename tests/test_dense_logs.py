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
from tests.test_properties import ERROR_LINES

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
