"""The pattern compiler and the matcher: exact hits, fuzzy drift, cut-offs, language and class."""

from __future__ import annotations

import zlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from leafexplain.match import DEFAULT_THRESHOLD, LIBRARY_BONUS, Matcher
from leafexplain.match.fuzzy import fuzzy_ceiling, fuzzy_score
from leafexplain.match.score import CEILING, ROUNDING, blended, head_share_needed, may_reach
from leafexplain.models import ErrorEvent, Frame
from leafexplain.records.patterns import compile_pattern, split_pattern
from leafexplain.records.schema import validate_record
from leafexplain.records.wording_words import wording_words
from tests.conftest import SEED_ID, load_bundled_matcher

MATCHER = load_bundled_matcher()


def rust(message: str, frames: tuple[Frame, ...] = ()) -> ErrorEvent:
    return ErrorEvent(language="rust", error_type="panic", message=message, frames=frames)


def python(error_type: str, message: str) -> ErrorEvent:
    return ErrorEvent(language="python", error_type=error_type, message=message)


def best(event: ErrorEvent, **kwargs):
    result = MATCHER.match(event, **kwargs)
    return result.matches[0] if result.matches else None


@pytest.mark.parametrize(
    ("pattern", "text"),
    [
        (
            "index out of bounds: the len is {len} but the index is {index}",
            "index out of bounds: the len is 3 but the index is 7",
        ),
        ("'%.200s' object is not subscriptable", "'NoneType' object is not subscriptable"),
        (
            "'%U' codec can't decode byte 0x%02x in position %zd: %U",
            "'utf-8' codec can\u2019t decode byte 0xff in position 0: invalid start byte",
        ),
        ("Should have handle for tensor {id:?}", "Should have handle for tensor TensorId { value: 7 }"),
        ("Error(s) in loading state_dict for {}:\n\t{}", "Error(s) in loading state_dict for Net:\n    Missing key(s)"),
        ("literal {{braces}} and 100%% sure {}", "literal {braces} and 100% sure yes"),
        ("called `Option::unwrap()` on a `None` value", "called 'Option::unwrap()' on a \"None\" value"),
    ],
)
def test_pattern_compiles_placeholders_quotes_and_whitespace(pattern: str, text: str) -> None:
    assert compile_pattern(pattern).search(text)


def test_placeholders_split_and_literal_text() -> None:
    assert split_pattern("a {} b %s c {{d}}") == ["a ", None, " b ", None, " c {d}"]
    assert "50% done" in compile_pattern("50% done {}").literal  # `% d` is not a directive
    assert compile_pattern("x {name:?}").tokens == ()  # `x` is too short to index


def test_exact_match_scores_100_with_span() -> None:
    hit = best(rust("prefix Can't convert a non leaf tensor into a tracked tensor suffix"))
    assert hit.record.id == SEED_ID and (hit.score, hit.method) == (100, "regex") and hit.span == (7, 60)


def test_another_releases_wording_is_exact_and_says_which() -> None:
    borrowed = best(rust("RefCell already borrowed"))  # Rust 1.86+; the record's own wording is 1.85's
    assert borrowed.record.slug == "already-borrowed-borrowmuterror" and borrowed.method == "regex"
    assert borrowed.score == 100 and borrowed.wording and borrowed.confidence.startswith("same error, wording of")
    own = best(rust("already borrowed: BorrowMutError"))
    assert own.record.id == borrowed.record.id and own.wording is None and own.confidence == "exact wording"


def test_a_message_cut_short_still_finds_its_record() -> None:
    cut = best(python("RuntimeError", "Trying to backward through the graph a second time,"))
    assert cut.record.slug == "trying-to-backward-through-the-graph-a-second-time" and cut.method == "fuzzy"
    assert cut.score >= DEFAULT_THRESHOLD and "the message ends before the wording does" in " ".join(cut.reasons)
    assert cut.confidence == "similar message"


def test_the_head_counts_more_than_the_tail() -> None:
    """A release that rewords the detail after the first clause still matches; one that changes the head does not."""
    reworded = best(python("RuntimeError", "Expected all tensors to be on the same device, found two: cuda:0, cpu"))
    assert reworded is not None and reworded.record.slug.startswith("expected-all-tensors-to-be-on-the-same-device")
    other = best(python("RuntimeError", "Expected all tensors to be on the same dtype, found two: f32, f64"))
    assert other is None or other.method == "class"  # at most the record of RuntimeError as such


@pytest.mark.parametrize(
    "message",
    ["attempt to frobnicate with overflow", "tenant quota exceeded: 1001 > 1000", "the widget is broken", "x"],
)
def test_unrelated_or_different_errors_match_nothing(message: str) -> None:
    assert MATCHER.match(rust(message)).matches == ()


def test_language_keeps_rust_and_python_apart() -> None:
    message = "list index out of range"
    assert best(python("IndexError", message)).record.repo == "python/cpython"
    assert best(rust(message)) is None


def test_exception_class_lowers_a_mismatch() -> None:
    """A short wording with the wrong class falls to the cut-off; a long one, found exactly, stays above it
    (releases change the class they raise: torch 2.13 raises ValueError where 2.6 raised IndexError)."""
    same = best(python("json.decoder.JSONDecodeError", "Expecting value: line 1 column 1 (char 0)"))
    other = best(python("KeyError", "Expecting value: line 1 column 1 (char 0)"))
    assert same.score == 100 and other.score == 95 and other.record.id == same.record.id
    short = MATCHER.match(python("KeyError", "division by zero"), threshold=0).matches[0]
    assert short.score == 85 and "exception class differs" in " ".join(short.reasons)


def test_library_in_frames_raises_a_fuzzy_score() -> None:
    frames = (Frame(file="/root/.cargo/registry/src/index.crates.io-x/burn-fusion-0.20.1/src/stream.rs", line=3),)
    plain = best(rust("Ordering is larger than the operations"), threshold=0)
    hinted = best(rust("Ordering is larger than the operations", frames), threshold=0)
    assert hinted.record.repo == "tracel-ai/burn" and hinted.score == min(plain.score + 5, 99)


def test_threshold_and_near_candidates() -> None:
    result = MATCHER.match(python("RuntimeError", "Trying to backward through the graph a second time,"), threshold=100)
    assert result.matches == () and result.near[0].record.slug == "trying-to-backward-through-the-graph-a-second-time"


def test_ranking_is_deterministic_and_prefers_specific_patterns() -> None:
    general, _ = validate_record(
        {
            "id": "aa",
            "repo": "a/b",
            "errorMessage": "non leaf tensor",
            "messagePattern": "non leaf tensor",
            "errorType": "panic",
        },
        "x",
    )
    records = [general, *MATCHER.catalog.all_records()]
    event = rust("Can't convert a non leaf tensor into a tracked tensor")
    first = [c.record.id for c in Matcher(records).match(event).matches]
    second = [c.record.id for c in Matcher(list(reversed(records))).match(event).matches]
    assert first == second == [SEED_ID, "aa"]


def test_an_error_carried_inside_another_is_explained_first() -> None:
    """unwrap on an Err whose payload a record explains: the payload's record first, the wrapper's second."""
    unwrap = "called `Result::unwrap()` on an `Err` value: "
    io = MATCHER.match(rust(unwrap + 'Os { code: 2, kind: NotFound, message: "No such file or directory" }'))
    assert [c.role for c in io.matches[:2]] == ["payload", "wrapper"]
    assert io.matches[1].record.slug == "called-result-unwrap-on-an-err-value-parseinterror"
    # tch wraps libtorch's errors: a PyTorch record may explain what a Rust panic carries, and only then.
    torch = "unsupported operation: more than one element of the written-to tensor refers to a single memory location"
    tch = MATCHER.match(rust(unwrap + f'Torch("{torch}. Please clone() the tensor before performing the operation.")'))
    assert tch.matches[0].record.repo == "pytorch/pytorch" and tch.matches[0].role == "payload"
    assert tch.matches[1].role == "wrapper"
    assert all(c.record.repo != "pytorch/pytorch" for c in MATCHER.match(rust(torch)).matches)


def test_a_record_for_an_exception_class_explains_what_nothing_more_specific_does() -> None:
    key = best(python("KeyError", "'learning_rate'"))
    assert (key.record.slug, key.method, key.confidence) == (
        "keyerror-key-not-in-dict",
        "class",
        "class-level (its exception class alone)",
    )
    assert best(rust("'learning_rate'")) is None
    bare = best(python("AssertionError", ""))
    assert bare.record.slug == "assertionerror-assert-statement-failed"
    # A wording found beats the class record.
    specific = best(python("KeyError", "'Expecting value: line 1 column 1 (char 0)'"))
    assert specific.method == "regex"


@pytest.mark.parametrize(
    ("message", "slug"),
    [
        # rendered markdown (an issue's text, a chat): code spans lose their backticks
        ("called Option::unwrap() on a None value", "called-option-unwrap-on-a-none-value"),
        (
            "assertion failed: (left == right)\n  left: Greater,\n right: Equal",
            "assertion-left-right-failed-left-3-right-2",
        ),
        ("missing field data at line 1 column 2", "missing-field-email-at-line-1-column-15"),
    ],
)
def test_a_wording_copied_from_rendered_markdown_is_found_without_its_backticks(message: str, slug: str) -> None:
    found = best(rust(message))
    assert found is not None and found.record.slug == slug and found.score == 100.0


def test_backticks_count_where_they_are_and_may_be_gone_where_they_are_not() -> None:
    """A message with its code marks is matched as written (any quote for any other); one that lost some of
    them (a quote around the whole panic, as older Rust printed it, left one behind) is found as well."""
    assert best(rust("called `Option::unwrap()` on a `None` value")).score == 100.0
    assert best(rust("called 'Option::unwrap()' on a 'None' value")).score == 100.0
    assert best(rust("called Option::unwrap() on a None value'`")).score == 100.0
    assert best(rust("called Option unwrap on None")).method == "fuzzy", "the words themselves still count"


# The score formula read both ways (match/score.py): the matcher leaves out, unscored, every record whose head
# words in a message weigh less than head_share_needed(...) of its head; none of them could have reached the floor.
FLOORS = st.floats(min_value=40.0, max_value=100.0)
BONUSES = st.sampled_from([0.0, LIBRARY_BONUS, 2.5])
SHARES = st.floats(min_value=0.0, max_value=1.0)
VOCABULARY = ["tensor", "device", "expected", "cuda", "memory", "allocate", "kernel", "shape", "mismatch", "buffer"]


def _weight(word: str) -> float:
    return 1.0 + zlib.crc32(word.encode()) % 5  # words weigh differently, the same in every run


@given(SHARES, BONUSES)
def test_head_share_needed_inverts_the_blend(head: float, bonus: float) -> None:
    floor = blended(head, 1.0) + bonus + ROUNDING
    if floor > CEILING + ROUNDING:  # no fuzzy score passes the ceiling: no head share is enough
        assert head_share_needed(floor, bonus) == float("inf")
        return
    assert head_share_needed(floor, bonus) == pytest.approx(head, abs=1e-9)
    assert blended(head_share_needed(floor, bonus), 1.0) + bonus + ROUNDING == pytest.approx(floor, abs=1e-9)


@given(SHARES, SHARES, FLOORS, BONUSES)
def test_a_head_share_under_the_one_needed_never_reaches_the_floor(
    head: float, whole: float, floor: float, bonus: float
) -> None:
    needed = head_share_needed(floor, bonus)
    if head < needed - 1e-9:
        assert not may_reach(blended(head, whole), bonus, floor)
    if head >= needed:
        assert may_reach(blended(head, 1.0), bonus, floor)


@given(
    st.lists(st.tuples(st.sampled_from(VOCABULARY), st.sampled_from([" ", " ", " ", ". ", ": "])), min_size=3),
    st.lists(st.sampled_from([*VOCABULARY, "other", "words", "here"]), max_size=30),
    FLOORS,
    BONUSES,
)
def test_a_record_the_head_index_leaves_out_could_not_have_reached_the_floor(
    wording: list[tuple[str, str]], message: list[str], floor: float, bonus: float
) -> None:
    parsed = wording_words("".join(word + gap for word, gap in wording).strip())
    head = parsed.words[: parsed.head]
    share = sum(_weight(w) for w in head if w in message) / sum(map(_weight, head))
    scored = fuzzy_score(parsed, message, _weight)
    ceiling = fuzzy_ceiling(parsed, set(message), _weight)
    if scored is not None:
        assert scored.score <= ceiling + ROUNDING
    if share < head_share_needed(floor, bonus) - 1e-9:
        assert scored is None or not may_reach(scored.score, bonus, floor)
        assert not may_reach(ceiling, bonus, floor)
