"""Property-based tests (hypothesis): extractors, the pattern compiler, the stream and the renderers
never raise on any text, and keep their promises on all of it.

`LEAFEXPLAIN_FUZZ=1` (set by .ci/run) turns the same properties into a fuzzing run of a few minutes,
with many more examples each; `LEAFEXPLAIN_FUZZ_EXAMPLES` sets how many.
"""

from __future__ import annotations

import io
import json
import os
import re

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from leafexplain import session
from leafexplain.env import Environment
from leafexplain.extract import events_in
from leafexplain.intake.stream import windows
from leafexplain.models import Candidate, ErrorEvent, Finding, Frame, Record
from leafexplain.records.patterns import QUOTES, compile_pattern, split_pattern, verbatim_fragments
from leafexplain.render.document import event_view, record_view
from leafexplain.render.formats.json_out import dumps, explain_document, record_dict
from leafexplain.render.formats.markdown import record_table_markdown, render_markdown
from leafexplain.render.formats.plain import record_table_plain, render_plain
from leafexplain.render.formats.rich_console import make_console
from leafexplain.render.formats.terminal_rich import record_table_rich
from leafexplain.text import decode, normalize
from tests.conftest import ROOT, SEED_ID, load_bundled_matcher
from tests.hostile import ESCAPES, assert_terminal_safe, render_rich

FUZZ = bool(os.environ.get("LEAFEXPLAIN_FUZZ"))
FUZZ_EXAMPLES = int(os.environ.get("LEAFEXPLAIN_FUZZ_EXAMPLES", "4000"))


def examples(default: int) -> settings:
    """The default suite stays fast; the fuzzing run in CI tries many more inputs."""
    return settings(
        max_examples=FUZZ_EXAMPLES if FUZZ else default,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


# --- what hostile text is made of -----------------------------------------------------------

ERROR_LINES = [
    "thread 'main' panicked at src/main.rs:1:5:",
    "thread 'main' (42) panicked at src/lib.rs:10:9:",
    "thread 'main' panicked at 'boom', src/main.rs:2:3",
    "thread '<unnamed>' panicked at 'multi",
    "line', src/x.rs:1:1",
    "Traceback (most recent call last):",
    '  File "app.py", line 3, in <module>',
    '  File "/usr/lib/python3.11/json/__init__.py", line 346, in loads',
    "    return f(x)",
    "           ^^^^",
    "RuntimeError: element 0 of tensors does not require grad and does not have a grad_fn",
    "ValueError: bad value",
    "KeyError",
    "The above exception was the direct cause of the following exception:",
    "  + Exception Group Traceback (most recent call last):",
    "  | ValueError: one",
    "  +---------------- 1 ----------------",
    "E   AssertionError: assert 1 == 2",
    "E     where 1 = f()",
    "_____________ test_one _____________",
    "tests/test_a.py:12: AssertionError",
    "FAILED tests/test_a.py::test_one - ValueError: bad",
    "app.py:3: DeprecationWarning: old",
    "stack backtrace:",
    "   0: std::panicking::begin_panic",
    "             at /rustc/abc1234/library/std/src/panicking.rs:10:5",
    "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace",
    "---- tests::it stdout ----",
    "2026-11-30T10:15:00.1234567Z ValueError: with a CI prefix",
    "[rank0]: RuntimeError: ranked",
    "",
    "    indented continuation",
]
hostile_text = st.lists(
    st.one_of(st.sampled_from(ESCAPES), st.sampled_from(ERROR_LINES), st.text(max_size=40)), max_size=12
).map("".join)
error_log = st.lists(
    st.one_of(
        st.sampled_from(ERROR_LINES),
        st.sampled_from(ESCAPES),
        st.text(max_size=30),
        st.builds(lambda a, b: a + b, st.sampled_from(ERROR_LINES), st.text(max_size=20)),
    ),
    max_size=40,
).map("\n".join)

# --- extractors -----------------------------------------------------------------------------


@examples(300)
@given(st.one_of(error_log, hostile_text, st.text()))
def test_extractors_never_raise_and_every_message_line_is_in_the_input(text: str) -> None:
    """Messages are taken from the input, never made up. Extractors strip a per-line prefix
    (a CI timestamp, `[rank0]:`, pytest's `E   `) and join a message's lines, so what holds is:
    each line of an extracted message is a substring of one line of the normalised input."""
    normal = normalize(text)
    lines = normal.split("\n")
    for event in events_in(normal):
        for line in event.message.split("\n"):
            assert any(line in source for source in lines), (line, normal)


@examples(100)
@given(st.one_of(error_log, st.binary(max_size=300).map(lambda b: b.decode("latin-1"))), st.data())
def test_the_stream_finds_the_same_errors_in_any_chunking(text: str, data: st.DataObject) -> None:
    """Small inputs and the windowed scan of large ones give message lines from the input, and
    the same events however the input is cut into pieces."""
    raw = text.encode("utf-8", "surrogatepass")
    cuts = sorted(data.draw(st.lists(st.integers(0, len(raw)), max_size=8)))
    pieces = [raw[a:b] for a, b in zip([0, *cuts], [*cuts, len(raw)], strict=True)]
    source_lines = normalize(decode(raw)).split("\n")
    for whole in (1 << 20, 16):  # one window, and the keyword scan
        events = [
            (e.message, e.line_number)
            for w in windows(pieces, whole_input_bytes=whole)
            for e in events_in(w.text, bare=w.whole, first_line=w.first_line)
        ]
        assert events == [
            (e.message, e.line_number)
            for w in windows([raw], whole_input_bytes=whole)
            for e in events_in(w.text, bare=w.whole, first_line=w.first_line)
        ]
        for message, _ in events:
            assert all(any(line in s for s in source_lines) for line in message.split("\n"))


# --- the pattern compiler -------------------------------------------------------------------

PIECES = st.sampled_from(["a", "b", "ab", " ", "  ", "\n", "'", '"', "`", "x y", ".", "(", "*", "%%", "{{"])
PLACEHOLDERS = st.sampled_from(["{}", "{:?}", "{name}", "%s", "%d", "%.2f"])
MESSAGE = st.text(alphabet="ab xy'\"`.(*\n\u2019%{}0", max_size=40)


@st.composite
def patterns(draw: st.DrawFn, max_placeholders: int = 3) -> str:
    parts = draw(st.lists(st.one_of(PIECES, PIECES, PLACEHOLDERS), max_size=9))
    kept, holes = [], 0
    for part in parts:
        is_hole = part in ("{}", "{:?}", "{name}", "%s", "%d", "%.2f")
        if is_hole and holes >= max_placeholders:
            continue
        holes += is_hole
        kept.append(part)
    return "".join(kept)


def wildcard_regex(pattern: str) -> re.Pattern[str]:
    """The pattern as one regex with `(.*?)` wildcards: the former compiler, the reference the piece matcher is
    held to here (never used on messages: it can backtrack for ever)."""
    quote = "[" + re.escape(QUOTES) + "]"
    parts = split_pattern(pattern)
    pieces = [
        "(.*?)"
        if p is None
        else "".join(
            r"\s+" if c.isspace() else "".join(quote if ch in QUOTES else re.escape(ch) for ch in c)
            for c in re.split(r"(\s+)", p)
            if c
        )
        for p in parts
    ]
    if parts and parts[-1] is None:
        pieces[-1] = "([^\\n]*)"
    return re.compile("".join(pieces), re.S)


@examples(600)
@given(patterns(), MESSAGE)
def test_the_linear_matcher_agrees_with_the_wildcard_regex(pattern: str, message: str) -> None:
    """A match exactly when the old `(.*?)` regex has one, starting at the same place; it ends at
    the same place too unless whitespace stands next to a wildcard in the middle (there the old
    regex took the whole run first and could reach a later piece)."""
    hit = compile_pattern(pattern).search(message)
    reference = wildcard_regex(pattern).search(message)
    assert (hit is None) == (reference is None)
    if hit is None or reference is None:
        return
    assert hit.start() == reference.start()
    assert hit.end() <= reference.end()
    parts = split_pattern(pattern)
    middle = range(1, len(parts) - 1)
    loose = any(
        parts[i] is None and ((parts[i - 1] or "")[-1:].isspace() or (parts[i + 1] or "")[:1].isspace()) for i in middle
    )
    if not loose:
        assert hit.span() == reference.span()


@examples(600)
@given(patterns(), MESSAGE)
def test_a_pattern_found_in_a_message_has_its_verbatim_stretches_there(pattern: str, message: str) -> None:
    """The matcher skips a wording whose verbatim stretches are not all in the message, without compiling
    it: that must never skip a wording that would be found."""
    if compile_pattern(pattern).search(message) is not None:
        assert all(fragment in message for fragment in verbatim_fragments(pattern))


@examples(200)
@given(st.text(max_size=60), st.text(max_size=200))
def test_any_pattern_compiles_and_searches_any_message(pattern: str, message: str) -> None:
    found = compile_pattern(pattern).search(message)
    assert found is None or 0 <= found.start() <= found.end() <= len(message)


# --- the seed record in noise ---------------------------------------------------------------

MATCHER = load_bundled_matcher()
SEED_BLOCK = (ROOT / "examples" / "burn-panic.txt").read_text()
noise = st.lists(st.one_of(st.text(max_size=50), st.sampled_from(ESCAPES), st.sampled_from(ERROR_LINES)), max_size=15)


@examples(60)
@given(noise, noise)
def test_the_seed_panic_in_any_noise_still_matches_the_seed_record(before: list[str], after: list[str]) -> None:
    text = "\n".join([*before, SEED_BLOCK, *after])
    report = session.explain([text.encode("utf-8", "surrogatepass")], MATCHER)
    assert any(f.best and f.best.record.id == SEED_ID for f in report.findings)


# --- the renderers --------------------------------------------------------------------------

any_text = st.one_of(st.text(max_size=80), hostile_text)
optional_text = st.one_of(st.none(), any_text)
TEXT_FIELDS = [name for name, kind in Record.__annotations__.items() if kind in ("str", "str | None")]
LIST_FIELDS = [name for name, kind in Record.__annotations__.items() if kind == "tuple[str, ...]"]
INT_FIELDS = [name for name, kind in Record.__annotations__.items() if kind == "int | None"]


@st.composite
def records(draw: st.DrawFn) -> Record:
    """Any record at all: what validation would refuse too (an embedding program can build one)."""
    values: dict[str, object] = {name: draw(optional_text) for name in TEXT_FIELDS}
    for name in ("id", "repo", "slug", "errorMessage", "messagePattern", "origin"):
        values[name] = draw(any_text)
    values["githubUrl"] = draw(
        st.one_of(
            optional_text,
            st.sampled_from(
                [
                    "javascript:alert(1)",
                    "file:///etc/passwd",
                    "data:text/html,<script>",
                    "https://user:pass@github.com/x",
                    "https://github.com/a/b\x1b]8;;x\x07",
                    "https://github.com/a/b>evil",
                    "https://github.com/tracel-ai/burn/blob/" + "a" * 40 + "/x.rs#L1-L2",
                ]
            ),
        )
    )
    for name in LIST_FIELDS:
        values[name] = tuple(draw(st.lists(any_text, max_size=4)))
    for name in INT_FIELDS:
        values[name] = draw(st.one_of(st.none(), st.integers(-(10**12), 10**12)))
    return Record(**values)  # type: ignore[arg-type]


frames = st.builds(
    Frame,
    file=any_text,
    line=st.one_of(st.none(), st.integers(0, 10**9)),
    column=st.one_of(st.none(), st.integers(0, 10**6)),
    function=optional_text,
)
events = st.builds(
    ErrorEvent,
    language=st.sampled_from(["rust", "python", "unknown"]),
    error_type=optional_text,
    message=any_text,
    location=st.one_of(st.none(), frames),
    frames=st.lists(frames, max_size=3).map(tuple),
    user_frame=st.one_of(st.none(), frames),
    test=optional_text,
    count=st.integers(1, 5),
)


def _all_formats(views: list) -> list[str]:
    return [
        render_plain(views, 80),
        render_markdown(views),
        render_rich(views, color=False),
        render_rich(views, color=True),
    ]


@examples(150)
@given(records())
def test_any_record_renders_in_every_format_without_a_raw_control_character(record: Record) -> None:
    for output in _all_formats([record_view(record)]):
        assert_terminal_safe(output)
    assert_terminal_safe(dumps({"record": record_dict(record)}))
    rows = [(record, 99.5), (record, None)]
    buffer = io.StringIO()
    make_console(Environment(stdout=buffer, width=100), "always", None).print(record_table_rich(rows[:1]))
    for output in (record_table_plain(rows[1:], 100), record_table_markdown(rows[:1]), buffer.getvalue()):
        assert_terminal_safe(output)


@examples(150)
@given(events, records(), st.one_of(st.none(), st.tuples(st.integers(-5, 200), st.integers(-5, 200))))
def test_any_event_and_match_render_without_a_raw_control_character(
    event: ErrorEvent, record: Record, span: tuple[int, int] | None
) -> None:
    assume(span is None or span[0] <= span[1])
    matched = Finding(event, matches=(Candidate(record, 100.0, "regex", span, ("pattern matched",)),))
    unmatched = Finding(event, near=(Candidate(record, 50.0, "fuzzy", None, ()),))
    views = [event_view(m, full=True, show_all=True) for m in (matched, unmatched)]
    for output in _all_formats(views):
        assert_terminal_safe(output)
    document = dumps(explain_document([matched, unmatched], 85.0))
    assert_terminal_safe(document)
    assert json.loads(document)["events"][0]["message"] == event.message  # JSON is data: kept whole, escaped
