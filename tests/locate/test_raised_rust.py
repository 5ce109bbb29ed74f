"""Where a Rust panic was raised in a crate: a faked cargo registry, git checkout and rust-src in tmp_path (and this
machine's own rust-src when it has one), pastes from other machines, and paths that must never be opened."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from leafexplain.extract import events_in
from leafexplain.locate import files
from leafexplain.locate.files import LocalPaths
from leafexplain.locate.raised import raised_at
from leafexplain.locate.raised_rust import known_layout, rust_raised
from leafexplain.locate.rust import forget_listings
from leafexplain.models import ErrorEvent
from tests.conftest import CORPUS, OUTPUTS

INDEX = "index.crates.io-1949cf8c6b5b557f"
# Real panic output (burn-nn's dropout check, rustc 1.95): the template every panic here is written from.
SCENARIOS = CORPUS / "scenarios"
DROPOUT = OUTPUTS / "records" / "burn" / "dropout-probability-should-be-between-0-and-1-but.txt"
DROPOUT_PLACE = f"/home/user/.cargo/registry/src/{INDEX}/burn-nn-0.20.1/src/modules/dropout.rs:34:13"
DROPOUT_MESSAGE = "Dropout probability should be between 0 and 1, but got 10"
BACKTRACE = OUTPUTS / "rust" / "cargo-run-backtrace.txt"  # a real RUST_BACKTRACE=1 run (rustc 1.95.0)
RUSTC_SHA = "59807616e1fa2540724bfbac14d7976d7e4a3860"
# The real Windows runner's paste of a cubecl panic in a git checkout (tests/corpus/pastes/batch1).
CUBECL_PASTE = Path(__file__).parents[1] / "corpus" / "pastes" / "batch1" / "cases" / "burn-cubecl-adapter-2026-1.txt"
CUBECL_CHECKOUT = ("cubecl-01990d4f7f2c358d", "43580a8")

# Stand-ins for crate files, written for these tests: only the message literals are the crates'.
INDEX_RS = """//! Indexing into a JSON value, as a test stand-in.

use crate::value::Value;

impl Index for str {
    /// Index into a JSON object for writing, inserting `null` at a missing key.
    ///
    /// Panics when the value is neither an object nor null.
    #[inline]
    fn index_or_insert<'v>(&self, v: &'v mut Value) -> &'v mut Value {
        if !matches!(v, Value::Object(_) | Value::Null) {
            panic!("cannot access key {:?} in JSON {}", self, Type(v));
        }
        v.as_object_mut().entry(self)
    }
}
"""
INDEX_LINE = 12
INDEX_MESSAGE = 'cannot access key "name" in JSON array'
SERDE_JSON_TOML = '[package]\nedition = "2021"\nname = "serde_json"\nversion = "1.0.120"\n'
SERDE_JSON_TOML += 'repository = "https://github.com/serde-rs/json"\n\n[dependencies.serde]\nversion = "1.0.194"\n'
RUNTIME_RS = (
    """// The wgpu runtime, as a test stand-in.
"""
    + "\n" * 414
    + (
        "pub fn select_adapter(adapters: Vec<Adapter>) -> Adapter {\n"
        "    let first = adapters.into_iter().next();\n"
        '    first.expect("No possible adapter available for backend. Falling back to first available.")\n'
        "}\n"
    )
)  # the expect on line 418
CELL_RS = "// core::cell, as a test stand-in.\n\n" + (
    "impl<T> RefCell<T> {\n"
    "    /// Mutably borrows the wrapped value.\n"
    "    pub fn borrow_mut(&self) -> RefMut<'_, T> {\n"
    "        match self.try_borrow_mut() {\n"
    "            Ok(b) => b,\n"
    "            Err(err) => panic_already_borrowed(err),\n"
    "        }\n"
    "    }\n"
    "}\n"
)  # the panic on line 8
MANIFEST = '[pkg.rustc]\nversion = "{version}"\n'


def write(path: Path, text: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def searches(url: str | None, repo: str, words: str, absent: str = "") -> bool:
    """`url` searches `repo`'s issues for each of `words` and none of `absent` (whatever else its query asks)."""
    from urllib.parse import parse_qs, urlsplit

    asked = parse_qs(urlsplit(url or "").query).get("q", [""])[0].split()
    return (
        bool(url)
        and url.startswith(f"https://github.com/{repo}/issues?")  # type: ignore[union-attr]
        and all(word in asked for word in words.split())
        and not any(word in asked for word in absent.split())
    )


def panic_at(place: str, message: str) -> ErrorEvent:
    """The event the real extractor finds in the real panic output, its place and message swapped."""
    text = DROPOUT.read_text(encoding="utf-8").replace(DROPOUT_PLACE, place).replace(DROPOUT_MESSAGE, message)
    (event,) = events_in(text)
    assert event.location is not None and event.message == message
    return event


class Machine:
    """A machine of its own: a cargo home and a rustup home in tmp_path, no rustc."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp.resolve()
        self.cargo = self.tmp / "cargo"
        self.rustup = self.tmp / "rustup"
        self.registry = self.cargo / "registry" / "src" / INDEX
        self.paths = LocalPaths(
            roots=(str(self.tmp / "project"),),
            cargo_home=str(self.cargo),
            rustup_home=str(self.rustup),
            stdlib=None,
            python_version="Python 3",
            system_rust_src=(),
            rustc_on_path=False,
        )
        forget_listings()

    def crate(self, name: str, version: str, files: dict[str, str | bytes], manifest: str | None = None) -> Path:
        folder = self.registry / f"{name}-{version}"
        if manifest is not False:
            write(folder / "Cargo.toml", manifest or f'[package]\nname = "{name}"\nversion = "{version}"\n')
        for rel, text in files.items():
            write(folder / rel, text)
        return folder

    def toolchain(self, name: str, version: str, files: dict[str, str]) -> Path:
        sysroot = self.rustup / "toolchains" / name
        write(sysroot / "lib" / "rustlib" / "multirust-channel-manifest.toml", MANIFEST.format(version=version))
        for rel, text in files.items():
            write(sysroot / "lib" / "rustlib" / "src" / "rust" / rel, text)
        forget_listings()
        return sysroot


@pytest.fixture
def machine(tmp_path: Path) -> Machine:
    return Machine(tmp_path)


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every path a lookup opens (files.py opens every file it reads with `open_resolved`)."""
    seen: list[str] = []
    real_open = files.open_resolved

    def spy(path: str, **kwargs):
        seen.append(path)
        return real_open(path, **kwargs)

    monkeypatch.setattr(files, "open_resolved", spy)
    files.forget_reads()
    return seen


# --- a crate in cargo's registry --------------------------------------------------------------------------------------


def test_a_registry_crate_here_gives_its_lines_function_doc_condition_and_links(machine: Machine) -> None:
    folder = machine.crate("serde_json", "1.0.120", {"src/value/index.rs": INDEX_RS}, SERDE_JSON_TOML)
    raised = rust_raised(panic_at(f"{folder}/src/value/index.rs:{INDEX_LINE}:13", INDEX_MESSAGE), machine.paths)
    assert raised is not None
    assert (raised.library, raised.version, raised.language) == ("serde_json", "1.0.120", "rust")
    assert raised.path == str(folder / "src" / "value" / "index.rs")
    assert (raised.line, raised.start) == (INDEX_LINE, INDEX_LINE - 3)
    assert raised.lines == tuple(INDEX_RS.splitlines()[INDEX_LINE - 4 : INDEX_LINE + 3])
    assert raised.lines[3].strip().startswith('panic!("cannot access key')
    assert raised.function == "index_or_insert"
    assert raised.docstring == "Index into a JSON object for writing, inserting `null` at a missing key."
    assert raised.condition == "if !matches!(v, Value::Object(_) | Value::Null)"
    assert raised.url == f"https://github.com/serde-rs/json/blob/v1.0.120/src/value/index.rs#L{INDEX_LINE}"
    assert raised.url_note is None
    assert raised.docs_url == f"https://docs.rs/crate/serde_json/1.0.120/source/src/value/index.rs#{INDEX_LINE}"
    # The message's words without its values (the quoted key, the type after "JSON" is a word: kept).
    assert searches(raised.issues_url, "serde-rs/json", "cannot access key in JSON array", absent='"name"')
    assert raised.new_command == (
        'leafexplain new --repo serde-rs/json --commit "$(git ls-remote https://github.com/serde-rs/json '
        "refs/tags/v1.0.120 'refs/tags/v1.0.120^{}' | tail -n 1 | cut -f 1)\" --path src/value/index.rs "
        f"--line {INDEX_LINE} --message 'cannot access key \"name\" in JSON array'"
    )
    assert not raised.changed


def test_the_dispatcher_hands_a_rust_event_here_and_redacts_the_lines(machine: Machine) -> None:
    secret = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    folder = machine.crate("serde_json", "1.0.120", {"src/value/index.rs": INDEX_RS.replace("Type(v)", f'"{secret}"')})
    event = panic_at(f"{folder}/src/value/index.rs:{INDEX_LINE}:13", INDEX_MESSAGE)
    from leafexplain.redact import Redactor

    raised = raised_at(event, machine.paths, Redactor())
    assert raised is not None and raised.line == INDEX_LINE
    assert secret in INDEX_RS.replace("Type(v)", f'"{secret}"') and not any(secret in line for line in raised.lines)


def test_a_paste_from_another_machine_reads_the_same_crate_version_here(machine: Machine) -> None:
    folder = machine.crate("serde_json", "1.0.120", {"src/value/index.rs": INDEX_RS}, SERDE_JSON_TOML)
    pasted = f"/home/runner/.cargo/registry/src/{INDEX}/serde_json-1.0.120/src/value/index.rs:{INDEX_LINE}:13"
    raised = rust_raised(panic_at(pasted, INDEX_MESSAGE), machine.paths)
    assert raised is not None and raised.path == str(folder / "src" / "value" / "index.rs")
    assert raised.function == "index_or_insert" and raised.line == INDEX_LINE
    # Another index's copy of the version is the same crate too; another version is not.
    windows = "C:\\Users\\runneradmin\\.cargo\\registry\\src\\index.crates.io-6f17d22bba15001f\\serde_json-1.0.120"
    other = f"{windows}\\src\\value\\index.rs:{INDEX_LINE}:13"
    assert rust_raised(panic_at(other, INDEX_MESSAGE), machine.paths).path == raised.path  # type: ignore[union-attr]
    newer = pasted.replace("1.0.120", "1.0.121")
    assert rust_raised(panic_at(newer, INDEX_MESSAGE), machine.paths).path is None  # type: ignore[union-attr]


def test_a_paste_whose_crate_is_not_here_says_what_the_path_says(machine: Machine) -> None:
    # The real panic, from another machine: burn-nn 0.20.1 raised it at line 34 (the `panic!(` of
    # DropoutConfig::init at burn's tag v0.20.1, read in its repository).
    event = events_in(DROPOUT.read_text(encoding="utf-8"))[0]
    raised = rust_raised(event, machine.paths)
    assert raised is not None
    assert (raised.library, raised.version, raised.path, raised.line) == ("burn-nn", "0.20.1", None, 34)
    assert raised.lines == () and raised.function is None and not raised.changed
    assert raised.url == "https://github.com/tracel-ai/burn/blob/v0.20.1/crates/burn-nn/src/modules/dropout.rs#L34"
    assert raised.docs_url == "https://docs.rs/crate/burn-nn/0.20.1/source/src/modules/dropout.rs#34"
    assert searches(
        raised.issues_url, "tracel-ai/burn", "Dropout probability should be between and but got", absent="10"
    )
    assert raised.new_command is not None and raised.new_command.startswith(
        'leafexplain new --repo tracel-ai/burn --commit "$(git ls-remote https://github.com/tracel-ai/burn '
        "refs/tags/v0.20.1 'refs/tags/v0.20.1^{}' | tail -n 1 | cut -f 1)\" "
        "--path crates/burn-nn/src/modules/dropout.rs --line 34 --message"
    )


@pytest.mark.parametrize(
    ("crate", "version", "url"),
    [
        ("burn-tensor", "0.12.1", "https://github.com/tracel-ai/burn/blob/v0.12.1/burn-tensor/src/lib.rs#L7"),
        ("cubecl-core", "0.9.0", "https://github.com/tracel-ai/cubecl/blob/v0.9.0/crates/cubecl-core/src/lib.rs#L7"),
        ("serde", "1.0.210", "https://github.com/serde-rs/serde/blob/v1.0.210/serde/src/lib.rs#L7"),
        ("tokio", "1.40.0", "https://github.com/tokio-rs/tokio/blob/tokio-1.40.0/tokio/src/lib.rs#L7"),
        ("tokio-util", "0.7.11", "https://github.com/tokio-rs/tokio/blob/tokio-util-0.7.11/tokio-util/src/lib.rs#L7"),
        ("wgpu", "22.1.0", "https://github.com/gfx-rs/wgpu/blob/v22.1.0/wgpu/src/lib.rs#L7"),
        ("wgpu-core", "0.19.0", "https://github.com/gfx-rs/wgpu/blob/wgpu-core-v0.19.0/wgpu-core/src/lib.rs#L7"),
        ("wgpu", "0.19.3", "https://github.com/gfx-rs/wgpu/blob/wgpu-v0.19.3/wgpu/src/lib.rs#L7"),
        ("naga", "22.1.0", "https://github.com/gfx-rs/wgpu/blob/naga-v22.1.0/naga/src/lib.rs#L7"),
        ("naga", "0.14.0", "https://github.com/gfx-rs/wgpu/blob/naga-v0.14.0/src/lib.rs#L7"),
        ("ndarray", "0.17.2", "https://github.com/rust-ndarray/ndarray/blob/0.17.2/src/lib.rs#L7"),
    ],
)
def test_the_known_crates_link_their_tag_and_folder(machine: Machine, crate: str, version: str, url: str) -> None:
    """Each tag named here exists in its repository (read with `git tag` in its mirror), with the crate's folder."""
    place = f"/home/ci/.cargo/registry/src/{INDEX}/{crate}-{version}/src/lib.rs:7:5"
    raised = rust_raised(panic_at(place, "the value is out of its range entirely"), machine.paths)
    assert raised is not None and raised.url == url and raised.url_note is None
    assert known_layout("left-pad", "1.0.0") is None


def test_an_unknown_crate_links_its_repository_by_its_vcs_info_else_its_tag_saying_so(machine: Machine) -> None:
    toml = '[package]\nname = "widgets"\nversion = "2.1.0"\nrepository = "https://github.com/acme/widgets.git"\n'
    body = 'fn spin() {\n    panic!("the widget spun out of its bearing");\n}\n'
    folder = machine.crate("widgets", "2.1.0", {"src/spin.rs": body}, toml)
    event = panic_at(f"{folder}/src/spin.rs:2:5", "the widget spun out of its bearing")
    raised = rust_raised(event, machine.paths)
    assert raised is not None and raised.url == "https://github.com/acme/widgets/tree/v2.1.0"
    assert raised.url_note == (
        "where src/spin.rs lies in acme/widgets is not known here; the link is the tag v2.1.0, its usual name"
    )
    assert searches(raised.issues_url, "acme/widgets", "the widget spun out of its bearing")
    assert raised.new_command is None  # no line to point at
    assert raised.function == "spin" and raised.docstring is None and raised.condition is None
    sha = "0123456789abcdef0123456789abcdef01234567"
    write(
        folder / ".cargo_vcs_info.json",
        f'{{\n  "git": {{\n    "sha1": "{sha}"\n  }},\n  "path_in_vcs": "crates/widgets"\n}}',
    )
    raised = rust_raised(event, machine.paths)
    assert raised is not None and raised.url_note is None
    assert raised.url == f"https://github.com/acme/widgets/blob/{sha}/crates/widgets/src/spin.rs#L2"
    # Without a repository nothing is linked but docs.rs.
    write(folder / "Cargo.toml", '[package]\nname = "widgets"\nversion = "2.1.0"\n')
    raised = rust_raised(event, machine.paths)
    assert raised is not None and raised.url is None and raised.issues_url is None
    assert raised.docs_url == "https://docs.rs/crate/widgets/2.1.0/source/src/spin.rs#2"


def test_a_crate_named_like_a_known_one_from_another_repository_is_linked_there(machine: Machine) -> None:
    toml = '[package]\nname = "burn-kan"\nversion = "0.3.0"\nrepository = "https://github.com/someone/burn-kan"\n'
    folder = machine.crate(
        "burn-kan", "0.3.0", {"src/lib.rs": 'fn f() {\n    panic!("the spline grid is empty");\n}\n'}, toml
    )
    raised = rust_raised(panic_at(f"{folder}/src/lib.rs:2:5", "the spline grid is empty"), machine.paths)
    assert raised is not None and raised.url == "https://github.com/someone/burn-kan/tree/v0.3.0"
    assert searches(raised.issues_url, "someone/burn-kan", "the spline grid is empty")


def test_a_version_the_workspace_gives_falls_back_to_the_folder_name(machine: Machine) -> None:
    toml = '[package]\nname = "burn-nn"\nversion.workspace = true\n'
    folder = machine.crate(
        "burn-nn", "0.20.1", {"src/modules/dropout.rs": "\n" * 33 + '    panic!("x {}", p);\n'}, toml
    )
    raised = rust_raised(panic_at(f"{folder}/src/modules/dropout.rs:34:5", DROPOUT_MESSAGE), machine.paths)
    assert raised is not None and raised.version == "0.20.1" and raised.line == 34 and raised.lines


def test_a_real_run_raising_in_a_registry_crate(machine: Machine) -> None:
    """`cargo run` of a program whose panic is raised in a crate laid in a registry's folder (tools/make_corpus.py,
    registry_outputs), with and without a backtrace: the run's machine is not this one, its crate version is here."""
    shutil.copytree(SCENARIOS / "registry" / "gadgets-0.3.1", machine.registry / "gadgets-0.3.1")
    lib = machine.registry / "gadgets-0.3.1" / "src" / "lib.rs"
    for name in ("cargo-run-registry-crate.txt", "cargo-run-registry-crate-backtrace.txt"):
        event = events_in((OUTPUTS / "rust" / name).read_text(encoding="utf-8"))[0]
        for seen in (event, event._replace(location=None)):  # the backtrace's frames alone say it too
            raised = rust_raised(seen, machine.paths)
            if seen.location is None and not seen.frames:
                assert raised is None
                continue
            assert raised is not None, name
            assert (raised.library, raised.version, raised.path, raised.line) == ("gadgets", "0.3.1", str(lib), 18)
            assert raised.lines[3].strip().startswith('panic!("a gadget needs at least two gears')
            assert (raised.function, raised.condition) == ("ratio", "if self.teeth.len() < 2")
            assert raised.docstring == "The ratio of the first gear to the last."
            assert raised.url == "https://github.com/leafexplain-tests/gadgets/tree/v0.3.1"
            assert raised.docs_url == "https://docs.rs/crate/gadgets/0.3.1/source/src/lib.rs#18"
            assert searches(raised.issues_url, "leafexplain-tests/gadgets", "a gadget needs at least two gears it has")


# --- a git checkout --------------------------------------------------------------------------------------------------


def test_a_git_checkout_here_reads_the_crate_and_links_the_commit(machine: Machine) -> None:
    name, commit = CUBECL_CHECKOUT
    crate = machine.cargo / "git" / "checkouts" / name / commit / "crates" / "cubecl-wgpu"
    write(crate / "Cargo.toml", '[package]\nname = "cubecl-wgpu"\nversion.workspace = true\n')
    write(crate / "src" / "runtime.rs", RUNTIME_RS)
    # The real paste names a Windows runner's checkout, line 420: here the file is shorter, so it changed.
    (event,) = events_in(CUBECL_PASTE.read_text(encoding="utf-8"))
    raised = rust_raised(event, machine.paths)
    assert raised is not None
    assert (raised.library, raised.version, raised.line) == ("cubecl-wgpu", commit, 420)
    assert raised.path == str(crate / "src" / "runtime.rs") and raised.changed and raised.lines == ()
    assert raised.url == f"https://github.com/tracel-ai/cubecl/blob/{commit}/crates/cubecl-wgpu/src/runtime.rs#L420"
    assert raised.docs_url is None  # docs.rs shows published versions, not commits
    here = event._replace(location=event.location._replace(line=418, column=11))  # type: ignore[union-attr]
    raised = rust_raised(here, machine.paths)
    assert raised is not None and not raised.changed and raised.function == "select_adapter"
    assert raised.lines[3].strip().startswith('first.expect("No possible adapter')


def test_a_git_checkout_not_here_says_the_crate_and_commit(machine: Machine) -> None:
    (event,) = events_in(CUBECL_PASTE.read_text(encoding="utf-8"))
    raised = rust_raised(event, machine.paths)
    assert raised is not None and raised.path is None and raised.lines == ()
    assert (raised.library, raised.version) == ("cubecl-wgpu", "43580a8")
    assert raised.issues_url is not None and raised.issues_url.startswith(
        "https://github.com/tracel-ai/cubecl/issues?q="
    )
    unknown = panic_at("/root/.cargo/git/checkouts/gizmo-0123456789abcdef/abc1234/src/lib.rs:3:9", "gizmo jammed hard")
    raised = rust_raised(unknown, machine.paths)
    assert raised is not None and (raised.library, raised.version, raised.url) == ("gizmo", "abc1234", None)


# --- Rust's standard library ------------------------------------------------------------------------------------------


def test_rust_std_at_the_pasted_commit_from_a_toolchain_of_that_commit(machine: Machine) -> None:
    place = f"/rustc/{RUSTC_SHA}/library/core/src/cell.rs:8:23"
    message = "already borrowed: BorrowMutError"
    nothing = rust_raised(panic_at(place, message), machine.paths)
    assert nothing is not None and (nothing.library, nothing.version, nothing.path) == ("Rust std", RUSTC_SHA, None)
    assert nothing.url == f"https://github.com/rust-lang/rust/blob/{RUSTC_SHA}/library/core/src/cell.rs#L8"
    assert searches(nothing.issues_url, "rust-lang/rust", "already borrowed BorrowMutError")
    assert nothing.new_command == (
        f"leafexplain new --repo rust-lang/rust --commit {RUSTC_SHA} --path library/core/src/cell.rs --line 8 "
        "--message 'already borrowed: BorrowMutError'"
    )
    # A toolchain of another commit is not that commit's source: nothing read.
    machine.toolchain(
        "1.80.0-x86_64-unknown-linux-gnu", "1.80.0 (051478957 2024-07-21)", {"library/core/src/cell.rs": CELL_RS}
    )
    assert rust_raised(panic_at(place, message), machine.paths).path is None  # type: ignore[union-attr]
    sysroot = machine.toolchain(
        "stable-x86_64-unknown-linux-gnu", "1.95.0 (59807616e 2026-04-14)", {"library/core/src/cell.rs": CELL_RS}
    )
    raised = rust_raised(panic_at(place, message), machine.paths)
    assert raised is not None and raised.path == str(sysroot / "lib/rustlib/src/rust/library/core/src/cell.rs")
    assert raised.version == "1.95.0 (59807616e 2026-04-14)" and raised.function == "borrow_mut"
    assert raised.docstring == "Mutably borrows the wrapped value."
    assert raised.url == f"https://github.com/rust-lang/rust/blob/{RUSTC_SHA}/library/core/src/cell.rs#L8"


def test_rust_std_from_a_rust_src_path_here(machine: Machine, opened: list[str]) -> None:
    """A std built from rust-src (`-Zbuild-std`) names its files there: read where they are, linked at the commit
    the toolchain's version names."""
    sysroot = machine.toolchain("nightly-x86_64-unknown-linux-gnu", "1.97.0-nightly (0a1b2c3d4 2026-06-01)", {})
    cell = write(sysroot / "lib/rustlib/src/rust/library/core/src/cell.rs", CELL_RS)
    raised = rust_raised(panic_at(f"{cell}:8:23", "already borrowed: BorrowMutError"), machine.paths)
    assert raised is not None and raised.path == str(cell) and raised.function == "borrow_mut"
    assert raised.version == "1.97.0-nightly (0a1b2c3d4 2026-06-01)"
    assert raised.url == "https://github.com/rust-lang/rust/blob/0a1b2c3d4/library/core/src/cell.rs#L8"
    # A rust-src path that is no toolchain's here is never opened: what the path says, and no commit to link.
    elsewhere = write(machine.tmp / "x" / "lib/rustlib/src/rust/library/core/src/cell.rs", CELL_RS)
    raised = rust_raised(panic_at(f"{elsewhere}:8:23", "already borrowed: BorrowMutError"), machine.paths)
    assert raised is not None and raised.path is None and raised.url is None and raised.library == "Rust std"
    assert set(opened) == {str(cell)}  # (its stamp, then its lines)


def test_the_backtrace_of_a_real_run_past_the_panic_machinery(machine: Machine) -> None:
    """A backtrace with no place of its own: its innermost frame that is not the panic's way to the hook."""
    event = events_in(BACKTRACE.read_text(encoding="utf-8"))[0]
    assert rust_raised(event, machine.paths) is None  # raised in burn-autodiff in the workspace: no crate folder
    crate = f"/home/ci/.cargo/registry/src/{INDEX}/burn-autodiff-0.20.1/src/tensor.rs"
    frames = tuple(
        f._replace(file=crate) if f.file.endswith("burn-autodiff/src/tensor.rs") else f for f in event.frames
    )
    assert frames[0].file.startswith(f"/rustc/{RUSTC_SHA}/")  # the machinery comes first
    raised = rust_raised(event._replace(location=None, frames=frames), machine.paths)
    assert raised is not None and (raised.library, raised.version, raised.line) == ("burn-autodiff", "0.20.1", 20)


def test_this_machines_rust_src() -> None:
    try:
        sysroot = subprocess.run(
            ["rustc", "--print", "sysroot"], capture_output=True, text=True, timeout=30
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        pytest.skip("no rustc on this machine")
    library = Path(sysroot) / "lib" / "rustlib" / "src" / "rust" / "library"
    cell = library / "core" / "src" / "cell.rs"
    if not cell.is_file():
        pytest.skip(f"rust-src is not installed in {sysroot} (rustup component add rust-src)")
    line = next(n for n, text in enumerate(cell.read_text().splitlines(), 1) if "fn borrow_mut" in text)
    rustup = Path(os.environ.get("RUSTUP_HOME", Path.home() / ".rustup"))
    paths = LocalPaths(roots=(), cargo_home="/nonexistent", rustup_home=str(rustup), stdlib=None, python_version="")
    forget_listings()
    raised = rust_raised(panic_at(f"{cell}:{line + 2}:9", "already borrowed: BorrowMutError"), paths)
    assert raised is not None and raised.library == "Rust std" and raised.path == str(cell.resolve())
    assert raised.function == "borrow_mut" and raised.lines


# --- what is never opened ---------------------------------------------------------------------------------------------


def test_a_path_outside_any_crate_folder_is_never_opened(machine: Machine, opened: list[str]) -> None:
    secret = write(machine.tmp / "secret" / "id_rsa.rs", 'panic!("key")\n')
    assert rust_raised(panic_at(f"{secret}:1:1", "no key at all here"), machine.paths) is None
    assert rust_raised(panic_at("/etc/passwd:1:1", "no key at all here"), machine.paths) is None
    # Shaped like a registry crate but not in this machine's cargo home: the same crate is looked for there only.
    evil = machine.tmp / "evil" / ".cargo" / "registry" / "src" / INDEX / "serde_json-1.0.120"
    write(evil / "Cargo.toml", SERDE_JSON_TOML)
    write(evil / "src" / "value" / "index.rs", INDEX_RS)
    raised = rust_raised(panic_at(f"{evil}/src/value/index.rs:{INDEX_LINE}:13", INDEX_MESSAGE), machine.paths)
    assert raised is not None and raised.path is None and raised.library == "serde_json"
    dotted = f"/home/u/.cargo/registry/src/{INDEX}/serde_json-1.0.120/../../../../../etc/passwd.rs:1:1"
    assert rust_raised(panic_at(dotted, INDEX_MESSAGE), machine.paths) is None
    assert opened == []


def test_a_folder_without_its_cargo_toml_is_not_read(machine: Machine, opened: list[str]) -> None:
    folder = machine.crate("serde_json", "1.0.120", {"src/value/index.rs": INDEX_RS}, manifest=False)  # type: ignore[arg-type]
    raised = rust_raised(panic_at(f"{folder}/src/value/index.rs:{INDEX_LINE}:13", INDEX_MESSAGE), machine.paths)
    assert raised is not None and (raised.library, raised.version, raised.path) == ("serde_json", "1.0.120", None)
    assert opened == []


def test_symlinks_out_of_the_crate_are_not_followed(machine: Machine, opened: list[str]) -> None:
    outside = write(machine.tmp / "outside" / "index.rs", INDEX_RS)
    folder = machine.crate("serde_json", "1.0.120", {}, SERDE_JSON_TOML)
    (folder / "src" / "value").mkdir(parents=True)
    (folder / "src" / "value" / "index.rs").symlink_to(outside)
    event = panic_at(f"{folder}/src/value/index.rs:{INDEX_LINE}:13", INDEX_MESSAGE)
    raised = rust_raised(event, machine.paths)
    assert raised is not None and raised.path is None
    # A Cargo.toml that is a symlink does not make a crate folder; nor a crate folder that is one.
    (folder / "src" / "value" / "index.rs").unlink()
    write(folder / "src" / "value" / "index.rs", INDEX_RS)
    (folder / "Cargo.toml").unlink()
    (folder / "Cargo.toml").symlink_to(write(machine.tmp / "outside" / "Cargo.toml", SERDE_JSON_TOML))
    assert rust_raised(event, machine.paths).path is None  # type: ignore[union-attr]
    elsewhere = machine.tmp / "outside" / "crate"
    write(elsewhere / "Cargo.toml", SERDE_JSON_TOML)
    write(elsewhere / "src" / "value" / "index.rs", INDEX_RS)
    linked = machine.registry / "serde_json-1.0.121"
    linked.symlink_to(elsewhere)
    newer = panic_at(f"{linked}/src/value/index.rs:{INDEX_LINE}:13", INDEX_MESSAGE)
    assert rust_raised(newer, machine.paths).path is None  # type: ignore[union-attr]
    assert not any(str(machine.tmp / "outside") in path for path in opened)


def test_a_symlink_loop_a_fifo_a_huge_or_binary_file_shows_no_lines(machine: Machine) -> None:
    folder = machine.crate(
        "serde_json",
        "1.0.120",
        {"src/huge.rs": "// x\n" * 500_000, "src/binary.rs": b"\x7fELF\x00\x00" + b"panic!\n" * 20},
        SERDE_JSON_TOML,
    )
    (folder / "src" / "loop.rs").symlink_to(folder / "src" / "loop.rs")
    os.mkfifo(folder / "src" / "fifo.rs")  # opening it must not wait for a writer
    for name in ("huge", "binary", "loop", "fifo"):
        raised = rust_raised(panic_at(f"{folder}/src/{name}.rs:3:1", INDEX_MESSAGE), machine.paths)
        assert raised is not None and raised.lines == () and raised.function is None, name
        assert raised.library == "serde_json" and raised.line == 3


def test_a_file_shorter_than_the_panics_line_is_said_to_have_changed(machine: Machine) -> None:
    folder = machine.crate("serde_json", "1.0.120", {"src/value/index.rs": INDEX_RS}, SERDE_JSON_TOML)
    raised = rust_raised(panic_at(f"{folder}/src/value/index.rs:900:13", INDEX_MESSAGE), machine.paths)
    assert raised is not None and raised.changed and raised.lines == () and raised.path is not None
    raised = rust_raised(panic_at(f"{folder}/src/value/index.rs:3:300", INDEX_MESSAGE), machine.paths)
    assert raised is not None and raised.changed and raised.lines == ()


def test_a_panic_in_your_own_code_is_no_crates(machine: Machine) -> None:
    event = panic_at("src/main.rs:4:5", "called `Option::unwrap()` on a `None` value")
    assert rust_raised(event, machine.paths) is None


@pytest.mark.parametrize(
    ("source", "line", "function", "doc", "condition"),
    [
        (
            "/// Checks the shape.\n///\n/// More.\n#[track_caller]\n#[inline]\n"
            "pub(crate) const unsafe fn check(n: usize) {\n"
            '    assert!(n > 0, "the shape is empty");\n}\n',
            7,
            "check",
            "Checks the shape.",
            'assert!(n > 0, "the shape is empty");',
        ),
        (
            "impl Queue {\n    pub async fn pop(&mut self) -> Item {\n"
            "        if self.open {\n            wait().await\n"
            "        } else if self.items.is_empty() {\n            // closed and drained\n"
            '            panic!("pop from a closed queue");\n        }\n    }\n}\n',
            7,
            "pop",
            None,
            "} else if self.items.is_empty()",
        ),
        (
            'fn run() -> Result<()> {\n    let x = load()?;\n    ensure!(x.ok(), "the load failed");\n    Ok(())\n}\n',
            3,
            "run",
            None,
            'ensure!(x.ok(), "the load failed");',
        ),
        ('static TABLE: [u8; 2] = [1, 2];\nconst _: () = panic!("never at all");\n', 2, None, None, None),
    ],
    ids=["assert-attributes", "else-if-async", "ensure", "no-fn"],
)
def test_the_fn_its_doc_comment_and_the_guard_are_read_from_the_source(
    machine: Machine, source: str, line: int, function: str | None, doc: str | None, condition: str | None
) -> None:
    folder = machine.crate("shapes", "1.0.0", {"src/lib.rs": source})
    raised = rust_raised(panic_at(f"{folder}/src/lib.rs:{line}:5", "the shape is empty"), machine.paths)
    assert raised is not None and raised.line == line and raised.lines
    assert (raised.function, raised.docstring, raised.condition) == (function, doc, condition)
