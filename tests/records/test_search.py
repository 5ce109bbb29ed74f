"""`search`: records ranked by relevance, nothing shown under the cut-off, bounded for any query and record."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import SEED_ID, make_record, write_records

MATMUL = make_record(
    "00000000000000a1",
    "mat1 and mat2 shapes cannot be multiplied (32x512 and 256x10)",
    messagePattern="mat1 and mat2 shapes cannot be multiplied ({}x{} and {}x{})",
    errorType="RuntimeError",
    errorClass="RuntimeError",
    tags=["python", "shape"],
)
NOT_CALLABLE = make_record(
    "00000000000000a2",
    "'str' object is not callable",
    messagePattern="'{}' object is not callable",
    errorType="TypeError",
    errorClass="TypeError",
    tags=["python", "type"],
)
DTYPE = make_record(
    "00000000000000a3",
    "mat1 and mat2 must have the same dtype, but got Double and Float",
    messagePattern="mat1 and mat2 must have the same dtype, but got {} and {}",
    errorType="RuntimeError",
    errorClass="RuntimeError",
    tags=["python", "dtype"],
)
KEY = make_record(
    "00000000000000a4",
    "'missing' not in the mapping",
    messagePattern="{} not in the mapping",
    errorType="KeyError",
    errorClass="KeyError",
    tags=["python", "dict"],
)
INDEX = make_record("00000000000000a5", "index out of bounds: the len is 3 but the index is 5", tags=["rust", "index"])
SLICE = make_record("00000000000000a6", "range end index 10 out of range for slice of length 4", tags=["bounds"])


def search(cli, folder: Path, *words: str) -> tuple[int, list[str], str]:
    done = cli("search", *words, "--records", str(folder), "--no-bundled", "--format", "json")
    ids = [r["id"] for r in json.loads(done.stdout)["records"]] if done.stdout else []
    return done.returncode, ids, done.stderr


def records(tmp_path: Path) -> Path:
    folder = tmp_path / "records"
    write_records(folder, "all.jsonl", MATMUL, NOT_CALLABLE, DTYPE, KEY, INDEX, SLICE)
    return folder


def test_only_relevant_records_are_shown_and_nothing_relevant_exits_1(cli, tmp_path: Path) -> None:
    folder = records(tmp_path)
    assert search(cli, folder, "KeyError")[:2] == (0, [KEY["id"]]), "the exception class, nothing else"
    assert search(cli, folder, "dtype")[:2] == (0, [DTYPE["id"]]), "not 'str' object is not callable"
    code, ids, err = search(cli, folder, "frobnication")
    assert (code, ids) == (1, []) and "no record is relevant to 'frobnication'" in err
    # Plain output: a line on stderr, nothing on stdout.
    plain = cli("search", "zebra", "--records", str(folder), "--no-bundled", "--format", "plain")
    assert plain.returncode == 1 and plain.stdout == "" and "no record is relevant" in plain.stderr


def test_ranked_by_relevance_phrase_first_and_misspellings_still_found(cli, tmp_path: Path) -> None:
    folder = records(tmp_path)
    assert search(cli, folder, "shapes cannot be multiplied")[1][0] == MATMUL["id"]
    assert search(cli, folder, "mutliplied shapes")[1] == [MATMUL["id"]], "a near spelling counts, for less"
    assert search(cli, folder, "multipl")[1] == [MATMUL["id"]], "the start of a word"
    code, ids, _ = search(cli, folder, "index out of bounds")
    assert code == 0 and ids[0] == INDEX["id"], "the words as the message has them rank first"
    scores = json.loads(
        cli("search", "mutliplied shapes", "--records", str(folder), "--no-bundled", "--format", "json").stdout
    )["records"]
    assert 60 <= scores[0]["score"] < 100


def test_the_bundled_records_answer_the_queries_of_the_issue(cli) -> None:
    found = json.loads(cli("search", "non leaf tensor tracked", "--format", "json").stdout)["records"]
    assert found[0]["id"] == SEED_ID
    assert cli("search", "frobnication").returncode == 1
    dtype = json.loads(cli("search", "dtype", "--format", "json").stdout)["records"]
    assert dtype and all("callable" not in r["errorMessage"] for r in dtype)


def test_a_huge_query_against_huge_patterns_is_bounded_and_said(cli, tmp_path: Path) -> None:
    """Issue 14's case: a 10 KB query against 100k-character patterns took 15 s per record."""
    folder = tmp_path / "big"
    huge = [
        make_record(f"00000000000000b{n}", f"giant {n} " + "lorem ipsum dolor " * 6000, tags=["rust"]) for n in range(5)
    ]
    write_records(folder, "big.jsonl", *huge)
    query = "lorem ipsum " * 900  # 10,800 characters
    code, ids, err = search(cli, folder, query)
    assert code == 0 and len(ids) == 5
    assert "the query is long: searched for its first 1000 characters" in err
