"""The held-out batch of the no-event shapes (tests/corpus/pastes/batch10/): how many of its errors an extractor reads
as an event (not a paragraph or whole-text guess), and that its texts with no error, and its JavaScript wasm traps,
give none. The record each positive gets is tests/corpus/test_pastes.py's to hold; this is the reading's floor."""

from __future__ import annotations

import json
from pathlib import Path

from leafexplain.extract import events_in, finish

BATCH = Path(__file__).parents[1] / "corpus" / "pastes" / "batch10"
CASES = [json.loads(line) for line in (BATCH / "manifest.jsonl").read_text(encoding="utf-8").splitlines() if line]
# JavaScript's RuntimeError in a browser console after a wasm trap: no error of Python's nor a panic's text.
NOT_READ = {"wasm-trap-uncaught-stdweb-2022", "wasm-trap-uncaught-quicksilver-2019", "wasm-trap-uncaught-spec-2019"}
# A rustc diagnostic opened by a backtick (`` `error: linker … ``): the header test refuses a quoted `error:`.
KNOWN_UNREAD = {"linker-link-exe-backtick-rust-2018"}


def read(case: dict) -> list:
    text = (BATCH / case["file"]).read_text(encoding="utf-8")
    return [e for e in finish(events_in(text)) if not e.tentative and e.extractor not in ("message", "paragraph")]


def test_every_error_of_the_batch_but_the_known_one_is_read_as_an_event() -> None:
    errors = [c for c in CASES if c["kind"] != "no-error" and c["id"] not in NOT_READ]
    unread = {c["id"] for c in errors if not read(c)}
    assert unread == KNOWN_UNREAD
    assert len(errors) - len(unread) >= 27  # 17 positives, 10 negatives (2026-12-02)


def test_its_texts_with_no_error_and_its_javascript_traps_give_no_event() -> None:
    quiet = [c for c in CASES if c["kind"] == "no-error" or c["id"] in NOT_READ]
    assert len(quiet) == 7
    assert [c["id"] for c in quiet if read(c)] == []
