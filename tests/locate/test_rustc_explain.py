"""What rustc says of an error code no record explains: `rustc --explain`'s opening and the error index's page,
asked only for such an error, and only when read."""

from __future__ import annotations

import json
import os
import shutil
import stat
from pathlib import Path

import pytest

from leafexplain import session
from leafexplain.locate import LocalPaths, find_sources
from leafexplain.locate import rustc as rustc_lookup
from leafexplain.locate.rustc import CodeLookup, explain_text, opening
from leafexplain.match import Matcher
from leafexplain.models import CodeExplanation
from tests.conftest import OUTPUTS, as_record, make_record

EXPLANATION = """A variable was used after its contents have been moved elsewhere.

Erroneous code example:

```compile_fail,E0382
fn main() {}
```
"""


def fake_rustc(folder: Path, script: str) -> str:
    """A `rustc` on a PATH of its own that runs `script` (sh), and a file that says each time it ran."""
    folder.mkdir(parents=True, exist_ok=True)
    rustc = folder / "rustc"
    rustc.write_text(f'#!/bin/sh\necho "$@" >> {folder / "calls"}\n{script}\n')
    rustc.chmod(rustc.stat().st_mode | stat.S_IEXEC)
    return str(folder)


def paths_with(search_path: str | None, tmp: Path, on_path: bool = True) -> LocalPaths:
    return LocalPaths(
        roots=(str(tmp),),
        cargo_home=str(tmp / "cargo"),
        rustup_home=str(tmp / "rustup"),
        stdlib=None,
        python_version="Python 3",
        system_rust_src=(),
        rustc_on_path=on_path,
        search_path=search_path,
    )


def calls(folder: str) -> list[str]:
    path = Path(folder) / "calls"
    return path.read_text().splitlines() if path.exists() else []


def test_the_opening_of_an_explanation() -> None:
    assert opening(EXPLANATION) == "A variable was used after its contents have been moved elsewhere."
    inline = "An unresolved name was used. Erroneous code examples:\n\n```\nx\n```\n"
    assert opening(inline) == "An unresolved name was used."
    long = " ".join(["word"] * 300)
    cut = opening(long)
    assert cut.endswith("…") and len(cut) <= rustc_lookup.MAX_EXPLAIN_CHARS
    assert opening("") is None and opening("```\ncode\n```\n") is None


def test_rustc_is_asked_once_per_code_and_only_when_read(tmp_path: Path) -> None:
    folder = fake_rustc(tmp_path / "bin", f"cat <<'EOF'\n{EXPLANATION}EOF")
    paths = paths_with(folder, tmp_path)
    report = session.explain((OUTPUTS / "rust" / "cargo-build-borrows.txt").read_text(), Matcher([]), pasted=False)
    located = find_sources(report.findings, paths)
    first, second = (found.explanation for found in located)
    assert (first.code, first.url) == ("E0382", "https://doc.rust-lang.org/error_codes/E0382.html")
    assert second.code == "E0502" and calls(folder) == []  # nothing run until a view reads the text
    assert first.text == "A variable was used after its contents have been moved elsewhere."
    assert first.text == first.text and calls(folder) == ["--explain E0382"]
    assert first == CodeExplanation("E0382", first.url, first.text)


def test_no_rustc_gives_the_page_alone(tmp_path: Path) -> None:
    lookup = CodeLookup("E0382", paths_with(str(tmp_path / "empty"), tmp_path))
    assert (lookup.url, lookup.text) == ("https://doc.rust-lang.org/error_codes/E0382.html", None)
    folder = fake_rustc(tmp_path / "bin", f"cat <<'EOF'\n{EXPLANATION}EOF")
    assert explain_text("E0382", paths_with(folder, tmp_path, on_path=False)) is None
    assert explain_text("--help", paths_with(folder, tmp_path)) is None  # not a code: rustc is not asked
    assert calls(folder) == []


def test_a_rustc_that_fails_or_hangs_gives_no_text(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    failing = fake_rustc(tmp_path / "failing", "echo 'error: E9999 is not a valid error code' >&2; exit 1")
    assert explain_text("E9999", paths_with(failing, tmp_path)) is None
    monkeypatch.setattr(rustc_lookup, "EXPLAIN_TIMEOUT", 0.3)
    hanging = fake_rustc(tmp_path / "hanging", "exec sleep 30")
    assert explain_text("E0382", paths_with(hanging, tmp_path)) is None


def test_only_a_compile_error_without_a_record_is_looked_up(tmp_path: Path) -> None:
    folder = fake_rustc(tmp_path / "bin", f"cat <<'EOF'\n{EXPLANATION}EOF")
    record = make_record("00000000000e0382", "borrow of moved value: `{}`", errorType="compile", errorCode="E0382")
    matcher = Matcher([as_record(record)])
    text = "".join((OUTPUTS / "rust" / name).read_text() for name in ("cargo-build-borrows.txt", "cargo-run-leaf.txt"))
    report = session.explain(text, matcher, pasted=False)
    assert [f.event.error_type for f in report.findings] == ["compile", "compile", "panic"]
    located = find_sources(report.findings, paths_with(folder, tmp_path))
    assert [found.explanation and found.explanation.code for found in located] == [None, "E0502", None]
    assert located[0].library == (None,)  # a compile record's file is the error index, not a library's source


@pytest.mark.skipif(shutil.which("rustc") is None, reason="rustc is not installed")
def test_the_real_rustc_explains_a_code(tmp_path: Path) -> None:
    text = explain_text("E0502", paths_with(os.environ.get("PATH"), tmp_path))
    assert text and "borrowed" in text and len(text) <= rustc_lookup.MAX_EXPLAIN_CHARS


def test_the_views_that_show_it(tmp_path: Path) -> None:
    """The default view, `--full`, Markdown and JSON say what rustc says of a code no record explains, and link
    its page; rustc runs once for them all."""
    from leafexplain.render import to_text
    from leafexplain.render.style import Style

    folder = fake_rustc(tmp_path / "bin", f"cat <<'EOF'\n{EXPLANATION}EOF")
    report = session.explain((OUTPUTS / "rust" / "cargo-build-borrows.txt").read_text(), Matcher([]), pasted=False)
    report = session.located_in(report, paths_with(folder, tmp_path))
    page = "https://doc.rust-lang.org/error_codes/E0382.html"
    said = "A variable was used after its contents have been moved elsewhere."
    default = to_text(report, Style(format="plain", width=100))
    assert "[1/2] compile · E0382 · Rust · no record" in default
    assert f"rustc:   {said}" in default and f"docs:    {page}" in default
    full = to_text(report, Style(format="plain", width=100, full=True))
    assert "rustc --explain E0382" in full and "What rustc says" in full and "  - value moved here" in full
    assert f"**Docs:** <{page}>" in to_text(report, Style(format="markdown"))
    document = json.loads(to_text(report, Style(format="json")))
    first = document["events"][0]
    assert (first["code"], first["error_index_url"], first["explain_text"]) == ("E0382", page, said)
    assert "value borrowed here after move" in first["detail"]
    assert calls(folder) == ["--explain E0382", "--explain E0502"]
