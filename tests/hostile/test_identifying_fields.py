"""Records never forge lines: the fields that identify a record are tokens, every check is anchored at the true
end of the string, and text shown next to a command to copy is quoted for the shell. (docs/robustness.md)"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from leafexplain.integrations.completion.lists import completion_values
from leafexplain.match import Matcher
from leafexplain.models import Record
from leafexplain.records import load_paths
from leafexplain.records.catalog import catalog_from_records
from leafexplain.render import Style, to_text
from leafexplain.render.summary import summary_text
from leafexplain.text import safe_link
from tests.conftest import as_record, make_record, write_records
from tests.hostile import assert_terminal_safe, render_rich

MESSAGE = "widget frobnication failed badly"
PANIC = f"thread 'main' panicked at src/main.rs:1:5:\n{MESSAGE}\n"
FORGED = [
    "x\nleafexplain: all good",
    "x\tinjected",
    "x; touch pwned",
    "$(touch pwned)",
    "`touch pwned`",
    "rm -rf ~",
    "-rf",
    "x|y",
    "x&y",
    "a>b",
    "x y",
    "x\n",
]


@pytest.mark.parametrize("field", ["id", "slug", "tags", "repo"])
@pytest.mark.parametrize("value", FORGED, ids=range(len(FORGED)))
def test_identifying_fields_with_whitespace_or_shell_syntax_are_refused(tmp_path: Path, field: str, value: str) -> None:
    hostile = {"tags": ["rust", value]} if field == "tags" else {field: value if field != "repo" else f"acme/{value}"}
    write_records(tmp_path, "records.jsonl", make_record("00000000000000bb", **hostile), make_record())
    loaded = load_paths([str(tmp_path)])
    assert [r.id for r in loaded.records] == ["00000000000000aa"], "the hostile one refused, the other loads"
    assert [p.field for p in loaded.problems] == [field]


@pytest.mark.parametrize("value", ["acme/widgets\n", "acme\n/widgets", "-acme/widgets", "acme/./", "acme/.."])
def test_a_repo_is_owner_slash_name_to_the_true_end(tmp_path: Path, value: str) -> None:
    write_records(tmp_path, "r.json", make_record(repo=value))
    assert [p.field for p in load_paths([str(tmp_path)]).problems] == ["repo"]


def test_a_link_ending_in_a_newline_is_refused_and_never_a_hyperlink(tmp_path: Path) -> None:
    url = "https://github.com/acme/widgets/blob/" + "a" * 40 + "/src/lib.rs#L1\n"
    assert safe_link(url) is None and safe_link(url.rstrip("\n")) == url.rstrip("\n")
    write_records(tmp_path, "r.json", make_record(githubUrl=url))
    assert [p.field for p in load_paths([str(tmp_path)]).problems] == ["githubUrl"]
    # A record built without validation (by an embedding program) gets no link either.
    from leafexplain.render.document import record_view

    rich = render_rich([record_view(record_of(githubUrl=url))], color=True)
    assert "\x1b]8;" not in rich and "(link not shown" in rich


def record_of(**fields: object) -> Record:
    """A Record built without validation, as an embedding program may build one."""
    return as_record({**make_record(), **fields})


def test_list_show_explain_and_completion_print_no_forged_line(cli, tmp_path: Path) -> None:
    hostile = [
        make_record(f"00000000000000{n:02x}", id_hint, slug=slug, tags=tags)
        for n, (id_hint, slug, tags) in enumerate(
            [
                (MESSAGE, "ok\nleafexplain: forged", ["rust"]),
                (MESSAGE + " twice", "fine", ["rust", "rm -rf ~"]),
                (MESSAGE + " thrice", "x; touch pwned", ["rust"]),
            ]
        )
    ]
    records = write_records(tmp_path / "recs", "r.jsonl", *hostile)
    for args in (("list",), ("show", "00000000000000aa"), ("search", "widget"), ("--format", "plain", PANIC)):
        result = cli(*args, "--records", str(records), "--no-bundled")
        assert_terminal_safe(result.stdout + result.stderr)
        assert "forged" not in result.stdout and "touch pwned" not in result.stdout
        assert all(line.startswith("leafexplain: ") for line in result.stderr.splitlines()), result.stderr
    cli.records.mkdir(parents=True)
    (cli.records / "r.jsonl").write_text(records.read_text())
    assert cli("__complete", "ids").returncode == 0  # asked by a TAB: writes the completion lists
    lists = cli.cache / "leafexplain" / "complete"
    for kind in ("ids", "slugs", "repos", "tags"):
        assert not {"rm -rf ~", "x; touch pwned", "forged"} & set((lists / f"{kind}.txt").read_text().split("\n"))


def test_completion_lists_hold_only_tokens_whatever_the_catalog_holds() -> None:
    odd = Record(id="a\nb", repo="acme/w", slug="$(x)", errorMessage="m", messagePattern="m", tags=("rm -rf ~", "ok"))
    catalog = catalog_from_records([odd, record_of()])
    assert completion_values(catalog, "ids") == {"00000000000000aa"}
    assert completion_values(catalog, "slugs") == {"widget"}
    assert completion_values(catalog, "tags") == {"ok"}


def test_a_command_to_copy_is_quoted_for_the_shell(cli) -> None:
    odd = record_of(id="x; touch pwned")
    from leafexplain.session import explain

    report = explain(PANIC, Matcher([odd]))
    assert "More: leafexplain show 'x; touch pwned'" in summary_text(report.findings)
    for fmt in ("github", "sarif"):  # the CI formats say it too
        text = to_text(report, Style(fmt))
        assert "leafexplain show 'x; touch pwned'" in text and "leafexplain show x; touch" not in text, fmt
    shown = cli("show", "$(touch pwned); x")
    assert shown.returncode == 1
    assert "(try `leafexplain search '$(touch pwned); x'`)" in shown.stderr


def test_the_bash_note_quotes_the_path_to_source(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from leafexplain.integrations.completion import install as shells

    monkeypatch.setattr(shells, "BASH_COMPLETION_SCRIPTS", ())
    folder = tmp_path / "my dir; x"
    installed = shells.install_completion(shells.Shell.bash, {"BASH_COMPLETION_USER_DIR": str(folder), "HOME": "/"})
    assert f"add `source '{folder}/completions/leafexplain'` to ~/.bashrc" in installed.notes[-1]


def test_validate_json_names_each_refused_field(cli, tmp_path: Path) -> None:
    write_records(tmp_path, "r.json", make_record(slug="a b", tags=["x;y"]))
    result = cli("validate", "--format", "json", str(tmp_path))
    fields = {p["field"] for p in json.loads(result.stdout)["problems"]}
    assert result.returncode == 1 and fields == {"slug", "tags"}


def test_a_heading_stays_one_line_whatever_the_record_says(tmp_path: Path) -> None:
    """`severity` is one line (validation), and a heading is made one line whoever built the record."""
    write_records(tmp_path, "r.json", make_record(severity="error\nleafexplain: forged"))
    assert [p.field for p in load_paths([str(tmp_path)]).problems] == ["severity"]
    from leafexplain.render.document import record_view

    assert record_view(record_of(severity="error\nleafexplain: forged")).heading.count("\n") == 0
