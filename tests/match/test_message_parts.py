"""A message pasted from its middle: a later sentence or line of a record's wording, opening a line, is the same
error (records/patterns.wording_parts); advice that could close any message, or words inside a sentence, are not.
So is a message cut short inside a value (wording_cuts), when what it keeps opens one wording only."""

from __future__ import annotations

import pytest

from leafexplain.match import Matcher
from leafexplain.records.patterns import wording_cuts, wording_heads, wording_parts
from leafexplain.session import explain
from tests.conftest import as_record, load_bundled_matcher, make_record

OOM = "05e30222c394707f"
MISSING_KEYS = "ba58493dd2ee4f11"


def tops(text: str) -> list[tuple[str, str]]:
    report = explain(text, load_bundled_matcher(), pasted=True)
    return [(f.best.record.id, f.best.method) for f in report.findings if f.best]


def test_a_wordings_parts_are_its_later_sentences_that_carry_values() -> None:
    pattern = "CUDA out of memory. Tried to allocate {} (GPU {}; {} total capacity; {} free)"
    assert wording_parts(pattern) == ("Tried to allocate {} (GPU {}; {} total capacity; {} free)",)
    assert wording_parts("Error(s) in loading state_dict for {}:\n\tMissing key(s) in state_dict: {}") == (
        "Missing key(s) in state_dict: {}",
    )
    # Advice without a value could close another library's message; a part that opens with a value says nothing.
    assert wording_parts("view size is not compatible with input tensor's size. Use .reshape(...) instead.") == ()
    assert wording_parts("Expected all tensors to be on the same device. {} and {} differ in the device") == ()


@pytest.mark.parametrize(
    ("text", "record"),
    [
        (
            "Tried to allocate 20.00 MiB (GPU 0; 1.96 GiB total capacity; 1.24 GiB already allocated; "
            "2.88 MiB free; 1.25 GiB reserved in total by PyTorch)\n",
            OOM,
        ),
        ('How do I fix this?\n\n> Missing key(s) in state_dict: "fc.weight", "fc.bias".\n', MISSING_KEYS),
        ('2024-01-02 12:00:01 ERROR Missing key(s) in state_dict: "fc.weight".\n', MISSING_KEYS),
    ],
)
def test_a_message_pasted_from_its_middle_is_the_same_error(text: str, record: str) -> None:
    assert tops(text) == [(record, "part")]


def test_words_of_a_part_inside_a_sentence_are_no_error() -> None:
    assert tops('I read that Missing key(s) in state_dict: "x" means the model changed, is that right?\n') == []


def test_the_rest_of_an_error_pasted_without_its_indent_is_not_a_second_error() -> None:
    text = (
        "RuntimeError: Error(s) in loading state_dict for VGG:\n"
        'Missing key(s) in state_dict: "features.0.weight", "features.0.bias"...\n'
    )
    found = tops("The error:\n```\n" + text + "```\n")
    assert len(found) == 1 and found[0][0] == MISSING_KEYS


def test_a_wordings_heads_are_its_opening_sentences_that_state_the_error() -> None:
    tokio = (
        "Cannot start a runtime from within a runtime. This happens because a function (like `block_on`) attempted "
        "to block the current thread while the thread is being used to drive asynchronous tasks."
    )
    assert wording_heads(tokio) == ("Cannot start a runtime from within a runtime",)
    sklearn = (
        "This {name} instance is not fitted yet. Call 'fit' with appropriate arguments before using this estimator."
    )
    assert wording_heads(sklearn) == ("This {name} instance is not fitted yet",)
    # Too short to state an error alone, or nothing left out after it.
    assert wording_heads("Invalid value. Expected a positive number for the learning rate.") == ()
    assert wording_heads("Cannot start a runtime from within a runtime.") == ()


@pytest.mark.parametrize(
    "text",
    [
        "Error content: Cannot start a runtime from within a runtime\n",  # tokio's panic, its first sentence
        "```\nNotFittedError: This Pipeline instance is not fitted yet.\nCall 'fit' with appropriate arguments\n```\n",
    ],
)
def test_a_message_pasted_up_to_its_first_sentence_is_the_same_error(text: str) -> None:
    [(_, method)] = tops(text)
    assert method == "part"


def test_an_opening_sentence_followed_by_other_words_is_not_a_head_found() -> None:
    assert tops("Cannot start a runtime from within a runtime, said nobody ever, is that right?\n") == []


def test_a_wordings_cuts_end_at_each_placeholder_with_enough_words_before_it() -> None:
    cublas = "CUDA error: CUBLAS_STATUS_{} when calling `{}`"
    assert wording_cuts(cublas) == ("CUDA error: CUBLAS_STATUS_{}",)
    # Longest first; a cut whose kept words are too few to name an error is not one.
    assert wording_cuts("Sizes of tensors must match except in dimension {}. Expected size {} but got size {}") == (
        "Sizes of tensors must match except in dimension {}. Expected size {}",
        "Sizes of tensors must match except in dimension {}",
    )
    assert wording_cuts("bad value {} for {}") == ()


PYTHON = {"errorType": "exception", "tags": ["python"]}
SHARDS = "Sharded checkpoint loader failed for {}: "
CUT_RECORDS = [
    make_record("00000000000000c1", "Pipeline worker refused the payload '{}' at stage {}", slug="refused", **PYTHON),
    make_record("00000000000000c2", SHARDS + "missing tensors {}", slug="missing", **PYTHON),
    make_record("00000000000000c3", SHARDS + "tensor sizes {} differ", slug="sizes", **PYTHON),
]


def cut_tops(text: str) -> list[tuple[str, str]]:
    report = explain(text, Matcher([as_record(r) for r in CUT_RECORDS]), pasted=True)
    return [(f.best.record.slug, f.best.method) for f in report.findings if f.best]


@pytest.mark.parametrize(
    "text",
    [
        "ValueError: Pipeline worker refused the payload '/data/shards/part-00\n",  # an issue title's length
        "**Pipeline worker refused the payload 'x7**\n",  # bold, in a chat
    ],
)
def test_a_message_cut_inside_a_value_is_the_same_error(text: str) -> None:
    assert cut_tops(text) == [("refused", "part")]


def test_a_cut_that_took_words_or_opens_two_wordings_names_no_error() -> None:
    # The value runs on in words: any error that opens the same way would match.
    assert cut_tops("ValueError: Pipeline worker refused the payload and then it stopped for good\n") == []
    # What is kept opens two records' wordings, missing tensors or sizes that differ: not found as either (words in
    # common may still make one a similar message).
    assert "part" not in {
        method for _, method in cut_tops("RuntimeError: Sharded checkpoint loader failed for model-0001\n")
    }


def test_a_real_cut_paste_is_explained_by_its_record() -> None:
    # torch's cuBLAS error without its `when calling ...`, pasted in bold.
    report = explain("**CUDA error: CUBLAS_STATUS_EXECUTION_FAILED**\n", load_bundled_matcher(), pasted=True)
    [best] = [f.best for f in report.findings if f.best]
    assert best.method == "part" and best.record.slug.startswith("cuda-error-cublas-status")


def test_a_wording_after_a_code_fence_opened_within_its_line_stands_as_an_error() -> None:
    # https://github.com/scikit-learn/scikit-learn/issues/20750: Markdown that lost its line breaks.
    text = "Facing this issue only on my system -- ``` No module named 'sklearn.pipeline' ```\n"
    [(_, method)] = tops(text)
    assert method == "regex"
    # The same words as a sentence's words are none.
    assert tops("Facing the message No module named 'sklearn.pipeline' on my system\n") == []
