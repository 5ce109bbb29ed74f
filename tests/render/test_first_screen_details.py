"""The default view's details a person notices: the fix's before comes before its after, the matched part of a
long message is on screen, every row fits the width (tabs, wide characters, long headings and paths), and the
`matched:` line quotes the record's wording, not its example values."""

from __future__ import annotations

import re

import pytest

from leafexplain.render import Style, to_text
from leafexplain.render.brief import example_lines
from leafexplain.render.fitting import cells
from leafexplain.render.layout import example_choice
from leafexplain.session import explain
from tests.conftest import bundled_records, load_bundled_matcher

WIDTH = 80


def plain(text: str, width: int = WIDTH) -> str:
    return to_text(explain(text, load_bundled_matcher()), Style(format="plain", width=width))


@pytest.mark.parametrize("count", [2, 3, 5, 100])
def test_an_example_shows_its_before_first_whatever_the_fix_adds(count: int) -> None:
    for record in bundled_records().records:
        lines = example_choice(example_lines(record.exampleFix), count)
        marks = [line.mark for line in lines]
        if "-" in marks:
            assert marks[0] == "-", (record.slug, lines)


def test_the_failing_line_is_shown_rather_than_one_the_fix_only_moves() -> None:
    example = example_lines(
        '// before\nfn main() {\n    let n: u32 = raw.parse().unwrap();\n    println!("{n}");\n}\n'
        '// after\nfn main() {\n    match raw.parse::<u32>() {\n        Ok(n) => println!("{n}"),\n'
        '        Err(e) => eprintln!("{e}"),\n    }\n}\n'
    )
    chosen = example_choice(example, 3)
    assert chosen[0].mark == "-" and "unwrap()" in chosen[0].text


def test_the_matched_part_of_a_long_message_is_on_screen() -> None:
    values = "\n".join(f"        [{n}.0000, {n}.5000, {n}.2500, {n}.1250, {n}.0625, {n}.0312]," for n in range(20))
    text = (
        'Traceback (most recent call last):\n  File "t.py", line 1, in <module>\n    f()\n'
        f"RuntimeError: tensor([\n{values}\n])\nmat1 and mat2 shapes cannot be multiplied (8x12 and 10x32)\n"
    )
    out = plain(text)
    assert "mat1 and mat2 shapes cannot be multiplied (8x12 and 10x32)" in " ".join(out.split("matched:")[0].split())
    assert "rows of the message above" in out


@pytest.mark.parametrize(
    "message",
    [
        "bad rows:\n\tname\tvalue\tsomething_else\tand_more_columns\tcolumn_five\tcolumn_six\tcolumn_seven",
        "spaced          out           message           with            wide               gaps here and there",
        "输入的数据格式不正确，请检查配置文件中的字段名称和类型是否与模型定义一致，否则训练无法继续进行下去，这是一条很长的中文错误信息",
    ],
)
def test_message_rows_fit_the_width(message: str) -> None:
    out = plain(
        f'Traceback (most recent call last):\n  File "t.py", line 1, in <module>\n    f()\nValueError: {message}\n'
    )
    assert all(cells(row) <= WIDTH for row in out.split("\n") if not row.lstrip().startswith("https://")), out


def test_a_long_heading_and_a_long_windows_path_fit_and_keep_the_file_and_line() -> None:
    folder = "C:\\Users\\SomeoneWithALongName\\Documents\\Projects\\deep-learning-experiments\\image_classification"
    text = (
        "Traceback (most recent call last):\n"
        f'  File "{folder}\\training_scripts\\train_resnet_model.py", line 88, in <module>\n'
        "    loss = criterion(outputs, labels)\n"
        "some.very.long.module.path.of.a.framework.that.nobody.has.heard.of.UnbelievablyLongExceptionClassName"
        "ForTestingTheHeading: mat1 and mat2 shapes cannot be multiplied (64x2048 and 512x10)\n"
    )
    out = plain(text)
    # A URL is the one thing never cut or wrapped: a row of its own, as wide as it is.
    assert all(cells(row) <= WIDTH for row in out.split("\n") if not row.lstrip().startswith("https://")), out
    where = re.search(r"^  at: +(.*\n(?: {11}\S.*\n)?)", out, re.M)
    assert where and "train_resnet_model.py:88" in "".join(where.group(1).split()), out


def test_the_matched_line_quotes_the_wording_not_the_records_example_values() -> None:
    out = plain("ModuleNotFoundError: No module named 'brax'\n")
    matched = next(line for line in out.split("\n") if "matched:" in line)
    assert "sklearn" not in matched and "No module named …" in matched, matched
    rust = plain(
        "thread 'main' panicked at src/main.rs:2:5:\nindex out of bounds: the len is 3 but the index is 7\n", 120
    )
    assert '"index out of bounds: the len is … but the index is …"' in rust


def test_an_unknown_errors_heading_names_its_language_as_explained_ones_do() -> None:
    assert plain("thread 'main' panicked at src/main.rs:2:5:\nworker: no input rows\n").startswith(
        "panic · Rust · no record"
    )
