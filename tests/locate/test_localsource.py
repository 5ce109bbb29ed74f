"""Your code and the library's: frames and records resolved to files on this machine, in real and faked layouts."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from leafexplain.locate import LocalPaths
from leafexplain.locate.files import user_snippet
from leafexplain.locate.library import library_source
from leafexplain.models import ErrorEvent, Frame, Record
from tests.conftest import OUTPUTS, Isolated, bundled_records

RUSTC_SHA = "59807616e1fa2540724bfbac14d7976d7e4a3860"  # the rustc 1.95.0 that produced the corpus
BACKTRACE = OUTPUTS / "rust" / "cargo-run-backtrace.txt"
CARGO_TEST = OUTPUTS / "rust" / "cargo-test-three.txt"
CAPACITY = OUTPUTS / "records" / "rust" / "capacity-overflow.txt"
TORCH_GRAD = OUTPUTS / "records" / "pytorch" / "grad-can-be-implicitly-created-only-for-scalar-out.txt"
REAL_SITE = "/root/.pyenv/versions/3.11.7/lib/python3.11/site-packages"  # where the corpus's torch ran
REGISTRY_INDEX = "index.crates.io-1949cf8c6b5b557f"
SEED_MESSAGE = "Can't convert a non leaf tensor into a tracked tensor"

# Stand-ins for library files, written for these tests: only the message literals are the libraries'.
FAKE_TENSOR_RS = """use crate::graph::Requirement;

pub struct AutodiffTensor {
    requirement: Requirement,
}

impl AutodiffTensor {
    pub fn is_leaf(&self) -> bool {
        !matches!(self.requirement, Requirement::GradInBackward)
    }

    /// Mark the tensor as tracked.
    ///
    /// Panics on a tensor computed from others.
    pub fn require_grad(mut self) -> Self {
        if !self.is_leaf() {
            // a tensor computed from others is not a leaf
            panic!("Can't convert a non leaf tensor into a tracked tensor")
        }
        self.requirement = Requirement::Grad;
        self
    }
}
"""
FAKE_TENSOR_LINE = 18
FAKE_OLD_TENSOR_RS = FAKE_TENSOR_RS.replace("Can't convert a non leaf tensor", "Cannot turn a non leaf tensor")
FAKE_RAW_VEC = """// alloc::raw_vec, as a test stand-in.

pub(crate) struct RawVec;

impl RawVec {
    pub(crate) fn new() -> Self {
        RawVec
    }
}

#[inline(never)]
#[track_caller]
pub(crate) fn capacity_overflow() -> ! {
"""
FAKE_RAW_VEC += (
    "\n" * (27 - FAKE_RAW_VEC.count("\n")) + '    panic!("capacity overflow");\n}\n'
)  # the message on line 28
FAKE_PANICKING = (
    "// core::panicking, as a test stand-in.\n"
    + "\n" * 270
    + (
        "fn panic_bounds_check(index: usize, len: usize) -> ! {\n"
        '    panic!("index out of bounds: the len is {len} but the index is {index}")\n'
        "}\n"
    )
)  # the message on line 273, where the record has it
FAKE_AUTOGRAD = '''"""torch.autograd, as a test stand-in."""


def _make_grads(outputs, grads):
    new_grads = []
    for out, grad in zip(outputs, grads):
        if grad is None and out.requires_grad:
            if out.numel() != 1:
                raise RuntimeError(
                    "grad can be implicitly created only for scalar outputs"
                )
            new_grads.append(1.0)
    return new_grads
'''
FAKE_AUTOGRAD_LINE = 10
MAIN_RS = "\n".join(
    [
        "use burn_autodiff::AutodiffTensor;",
        "",
        "fn scaled_weights() -> AutodiffTensor {",
        "    AutodiffTensor::ones(3).scale(2.0)",
        "}",
        "",
        "fn main() {",
        "    let scenario = std::env::args().nth(1).unwrap_or_default();",
        '    println!("running scenario {scenario}");',
        "    match scenario.as_str() {",
        "        _ => {",
        "            // the weights come from a computation:",
        "            // not a leaf",
        "            let w = scaled_weights().require_grad();",
        '            println!("{:?}", w.values);',
        "        }",
        "    }",
        "}",
        "",
    ]
)


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


class Machine:
    """An isolated machine: its own home, cargo and rustup folders, and a PATH without any toolchain."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.home = tmp / "home"
        self.cargo = tmp / "cargo"
        self.rustup = tmp / "rustup"
        self.cwd = tmp / "cwd"
        self.bin = tmp / "bin"
        for folder in (self.home, self.cargo, self.rustup, self.cwd, self.bin):
            folder.mkdir(parents=True, exist_ok=True)
        self.user = Isolated(
            tmp,
            HOME=str(self.home),
            CARGO_HOME=str(self.cargo),
            RUSTUP_HOME=str(self.rustup),
            PATH=os.pathsep.join([str(self.bin), str(Path(sys.executable).parent)]),
        )

    def run(self, *args: str, input: str | None = None, cwd: Path | None = None, **extra: str):
        """The command in-process, in this machine's folders (a process of its own with `PYTHONPATH`, which only
        a new Python reads)."""
        wide = () if "--width" in args else ("--width", "1000")  # long temporary paths stay on one line
        run = self.user.process if "PYTHONPATH" in extra else self.user
        return run(*wide, *args, input=input, extra_env=extra, cwd=cwd or self.cwd)

    def toolchain(self, name: str, version: str, files: dict[str, str]) -> Path:
        sysroot = self.rustup / "toolchains" / name
        write(sysroot / "lib" / "rustlib" / "multirust-channel-manifest.toml", MANIFEST.format(version=version))
        for rel, text in files.items():
            write(sysroot / "lib" / "rustlib" / "src" / "rust" / rel, text)
        return sysroot

    def fake_rustc(self, sysroot: Path) -> Path:
        """A `rustc` on PATH that answers --print sysroot and leaves a mark when it is run."""
        marker = self.tmp / "rustc-ran"
        script = write(self.bin / "rustc", f'#!/bin/sh\necho "$@" >> "{marker}"\necho "{sysroot}"\n')
        script.chmod(0o755)
        return marker

    def crate(self, name: str, version: str, files: dict[str, str]) -> Path:
        folder = self.cargo / "registry" / "src" / REGISTRY_INDEX / f"{name}-{version}"
        for rel, text in files.items():
            write(folder / rel, text)
        return folder


MANIFEST = (
    'manifest-version = "2"\ndate = "2026-04-16"\n\n[pkg.cargo]\nversion = "0.96.0 (f2d3ce0bd 2026-03-21)"\n\n'
    '[pkg.rustc]\nversion = "{version}"\n'
)


@pytest.fixture
def machine(tmp_path: Path) -> Machine:
    return Machine(tmp_path)


def section(output: str, title: str) -> str:
    """One section of plain output: from its title to the next blank line that ends it."""
    assert title in output, output
    lines = output.split(title + "\n", 1)[1].split("\n")
    out = []
    for line in lines:
        if line and not line.startswith("  "):
            break
        out.append(line)
    return "\n".join(out).strip("\n")


def highlighted(output: str) -> str:
    return next(line for line in output.split("\n") if line.startswith("  > "))


def events(result) -> list[dict]:
    assert result.returncode == 0, result.stderr  # every input here is explained
    return json.loads(result.stdout)["events"]


# --- nothing installed: the output of before ----------------------------------------------------------------------


NOT_LOCAL = {
    "burn backtrace": BACKTRACE,  # a burn crate in a workspace that is not here; /rustc/ frames
    "cargo test": CARGO_TEST,  # Rust std records, burn without a backtrace
    "std location": CAPACITY,  # the panic location is in /rustc/<sha>/library
    "C source": OUTPUTS / "records" / "python" / "division-by-zero.txt",  # CPython's C code is never installed
    "C++ source": OUTPUTS / "records" / "pytorch" / "mat1-and-mat2-shapes-cannot-be-multiplied-32x512-a.txt",
}


SYSTEM_RUST_SRC = pytest.mark.skipif(
    any(Path(p, "library").is_dir() for p in ("/usr/lib/rustlib/src/rust", "/usr/local/lib/rustlib/src/rust")),
    reason="this machine has a system-wide rust-src",
)


@SYSTEM_RUST_SRC
@pytest.mark.parametrize("name", sorted(NOT_LOCAL))
def test_nothing_installed_gives_the_output_of_before(machine: Machine, name: str) -> None:
    # The corpus ran in /work/main: as if it had run on another machine.
    text = NOT_LOCAL[name].read_text(encoding="utf-8").replace("/work/main/", "/home/ci/src/")
    source = str(write(machine.tmp / "input.txt", text))
    ran = machine.fake_rustc(machine.tmp)  # no toolchain has rust-src: rustc must not be asked
    for fmt in ("plain", "markdown", "rich"):
        looked = machine.run("--format", fmt, "--width", "90", "--file", source)
        before = machine.run("--format", fmt, "--width", "90", "--no-source", "--file", source)
        assert looked.returncode == before.returncode == 0, looked.stderr
        assert looked.stdout == before.stdout, fmt
        assert "Library source (installed)" not in looked.stdout and "Your code" not in looked.stdout
        assert "https://github.com/" in looked.stdout, "the link either way"
    # JSON gains the fields, null (the snippet only from a record that carries its own); everything else is as before.
    looked_events = events(machine.run("--format", "json", "--file", source))
    before_events = events(machine.run("--format", "json", "--no-source", "--file", source))
    for event in looked_events:
        assert event.pop("user_snippet") is None
        assert event.pop("explain_text") is None  # no compile error here
        # Where a library raised it: what the path says, or read from a library that is installed here after all
        # (the machine the corpus ran on has torch in its own Python).
        raised = event.pop("raised")
        assert raised is None or "path" not in raised or Path(raised["path"]).is_file()
        for match in event["matches"]:
            assert match.pop("library_source") is None
            assert (match.pop("source_snippet") or {"origin": "record"})["origin"] == "record"
    assert looked_events == before_events
    assert not ran.exists()


@SYSTEM_RUST_SRC
def test_golden_files_hold_without_local_sources(machine: Machine) -> None:
    """The golden files of tests/render/test_render.py are what a machine with nothing installed prints."""
    golden = Path(__file__).parents[1] / "golden"
    for case, source in (("burn-backtrace", BACKTRACE), ("cargo-test-three", CARGO_TEST)):
        result = machine.run("--format", "plain", "--width", "90", "--file", str(source))
        assert result.stdout == (golden / f"{case}.plain.txt").read_text(encoding="utf-8")


def test_no_source_leaves_the_json_fields_out(machine: Machine) -> None:
    plain = events(machine.run("--format", "json", "--no-source", "--file", str(BACKTRACE)))
    assert "user_snippet" not in plain[0] and "library_source" not in plain[0]["matches"][0]


# --- your code ----------------------------------------------------------------------------------------------------


def test_your_code_from_root_and_from_the_current_folder(machine: Machine) -> None:
    workspace = machine.tmp / "workspace"
    main = write(workspace / "app" / "src" / "main.rs", MAIN_RS)
    from_root = machine.run("--full", "--format", "plain", "--root", str(workspace), "--file", str(BACKTRACE))
    assert from_root.returncode == 0, from_root.stderr
    mine = section(from_root.stdout, "Your code")
    assert mine.split("\n")[0] == f"  {main}:14"
    assert highlighted(mine) == "  > 14 |             let w = scaled_weights().require_grad();"
    assert "  11 |         _ => {" in mine and "  17 |     }" in mine  # three lines either side
    # The same relative path from the workspace itself, no --root needed.
    from_cwd = machine.run("--full", "--format", "plain", "--file", str(BACKTRACE), cwd=workspace)
    assert section(from_cwd.stdout, "Your code") == mine
    # JSON carries the same lines.
    snippet = events(machine.run("--format", "json", "--root", str(workspace), "--file", str(BACKTRACE)))[0][
        "user_snippet"
    ]
    assert snippet["path"] == str(main) and snippet["line"] == 14 and snippet["start"] == 11 and snippet["note"] is None
    assert snippet["lines"][3] == "            let w = scaled_weights().require_grad();" and len(snippet["lines"]) == 7


def test_root_must_be_a_folder(machine: Machine) -> None:
    result = machine.run("--root", str(machine.tmp / "nowhere"), "--file", str(BACKTRACE))
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.strip().splitlines() == [f"leafexplain: --root {machine.tmp / 'nowhere'}: not a folder"]


def test_user_snippet_skips_what_is_not_a_readable_file(tmp_path: Path) -> None:
    paths = local_paths(tmp_path)
    write(tmp_path / "big.py", "x = 1\n" * 400_000)  # over the size cap
    (tmp_path / "blob.py").write_bytes(b"\0\1\2" * 10)
    write(tmp_path / "short.py", "a = 1\n")
    for file, line in (("<string>", 1), ("/no/such/machine/train.py", 3), ("big.py", 2), ("blob.py", 1)):
        assert user_snippet(event_at(file, line), paths) is None, file
    assert user_snippet(event_at("short.py", 9), paths) is None, "a line past the end: the file changed"
    assert user_snippet(event_at("short.py", 1), paths) is None, "a Python frame without its code line proves nothing"
    found = user_snippet(event_at("short.py", 1, "a = 1"), paths)
    assert found and found.lines == ("a = 1",) and found.start == 1 and found.language == "python"


def test_user_snippet_follows_a_python_line_that_moved(tmp_path: Path) -> None:
    """A traceback prints the code of each line: when the file changed since the run, it is found again."""
    paths = local_paths(tmp_path)
    write(tmp_path / "train.py", "# a comment added after the run\nimport json\n\njson.loads(text)\n")
    frame = Frame("train.py", 3, code="json.loads(text)")
    moved = user_snippet(ErrorEvent("python", "E", "m", frames=(frame,), user_frame=frame), paths)
    assert moved and moved.line == 4 and moved.lines[moved.line - moved.start] == "json.loads(text)"
    assert moved.note == "The file changed since the run: the traceback's line 3 is line 4 now."
    frame = Frame("train.py", 3, code="model.fit(data)")
    gone = user_snippet(ErrorEvent("python", "E", "m", frames=(frame,), user_frame=frame), paths)
    assert gone and gone.line == 3 and "line 3 no longer holds the traceback's code" in gone.note
    assert gone.lines == (), "a line that differs: the path and a note, none of the file's lines"
    frame = Frame("train.py", 4, code="json.loads(text)")
    same = user_snippet(ErrorEvent("python", "E", "m", frames=(frame,), user_frame=frame), paths)
    assert same and same.line == 4 and same.note == ""


# --- Rust: rust-src of a toolchain -----------------------------------------------------------------------------------


def test_rust_std_from_the_backtrace_commit_without_running_rustc(machine: Machine) -> None:
    sysroot = machine.toolchain(
        "stable-x86_64-unknown-linux-gnu",
        "1.95.0 (59807616e 2026-04-14)",
        {"library/alloc/src/raw_vec/mod.rs": FAKE_RAW_VEC},
    )
    machine.toolchain("1.80.0-x86_64-unknown-linux-gnu", "1.80.0 (051478957 2024-07-21)", {"library/x": ""})
    marker = machine.fake_rustc(sysroot)
    result = machine.run("--full", "--format", "plain", "--file", str(CAPACITY))
    installed = section(result.stdout, "Library source (installed)")
    local = sysroot / "lib" / "rustlib" / "src" / "rust" / "library" / "alloc" / "src" / "raw_vec" / "mod.rs"
    # The record names raw_vec.rs (Rust 1.85); 1.95 has raw_vec/mod.rs, where the panic location points.
    assert installed.split("\n")[0] == f"  {local}:28 · rustc 1.95.0 (59807616e 2026-04-14)"
    assert highlighted(installed) == '  > 28 |     panic!("capacity overflow");'
    assert "Drift: the message moved to line 28 (line 25 at the analysed commit 4eb161250e)." in installed
    assert f"https://github.com/rust-lang/rust/blob/{RUSTC_SHA}/library/alloc/src/raw_vec/mod.rs#L28" in installed
    assert "https://github.com/rust-lang/rust/blob/4eb161250e" in result.stdout, "the record's link stays"
    assert not marker.exists(), "the commit chose the toolchain: no rustc run"
    source = events(machine.run("--format", "json", "--file", str(CAPACITY)))[0]["matches"][0]["library_source"]
    assert source["path"] == str(local) and source["line"] == 28 and source["drift"] == "moved"
    assert source["version"] == "rustc 1.95.0 (59807616e 2026-04-14)"


def test_rust_std_asks_rustc_when_toolchains_compete(machine: Machine) -> None:
    machine.toolchain("stable-x86_64-unknown-linux-gnu", "1.95.0 (59807616e 2026-04-14)", {"library/x": ""})
    nightly = machine.toolchain(
        "nightly-x86_64-unknown-linux-gnu",
        "1.97.0-nightly (0a1b2c3d4 2026-05-01)",
        {"library/core/src/panicking.rs": FAKE_PANICKING},
    )
    marker = machine.fake_rustc(nightly)
    result = machine.run("--full", "--format", "plain", "--file", str(CARGO_TEST))
    installed = section(result.stdout, "Library source (installed)")
    assert "library/core/src/panicking.rs:273 · rustc 1.97.0-nightly (0a1b2c3d4 2026-05-01)" in installed
    assert "No drift: the message is at line 273, as at the analysed commit 4eb161250e." in installed
    assert marker.read_text().split("\n")[0] == "--print sysroot"
    # Without rust-src in any toolchain, rustc is never asked.
    marker.unlink()
    bare = Machine(machine.tmp / "bare")
    bare.fake_rustc(nightly)
    assert "Library source" not in bare.run("--full", "--format", "plain", "--file", str(CARGO_TEST)).stdout
    assert not (bare.tmp / "rustc-ran").exists()


# --- Rust: a crate in cargo's registry --------------------------------------------------------------------------------


def registry_backtrace(home: str, version: str) -> str:
    """The real backtrace of the corpus, as it prints when burn-autodiff comes from the registry."""
    crate = f"{home}/.cargo/registry/src/{REGISTRY_INDEX}/burn-autodiff-{version}/src/tensor.rs"
    text = BACKTRACE.read_text(encoding="utf-8")
    return text.replace("./crates/burn-autodiff/src/tensor.rs", crate).replace(
        "crates/burn-autodiff/src/tensor.rs", crate
    )


def test_crate_version_from_the_frames(machine: Machine) -> None:
    machine.crate("burn-autodiff", "0.20.1", {"src/tensor.rs": FAKE_TENSOR_RS})
    machine.crate("burn-autodiff", "0.19.0", {"src/tensor.rs": FAKE_OLD_TENSOR_RS})
    local = machine.cargo / "registry" / "src" / REGISTRY_INDEX / "burn-autodiff-0.20.1" / "src" / "tensor.rs"
    # A backtrace from another machine (a CI runner): its version is found in this registry.
    result = machine.run("--full", "--format", "plain", input=registry_backtrace("/home/runner", "0.20.1"))
    assert result.returncode == 0, result.stderr
    installed = section(result.stdout, "Library source (installed)")
    assert installed.split("\n")[0] == f"  {local}:{FAKE_TENSOR_LINE} · burn-autodiff 0.20.1"
    assert highlighted(installed) == f'  > {FAKE_TENSOR_LINE} |             panic!("{SEED_MESSAGE}")'
    assert f"Drift: the message moved to line {FAKE_TENSOR_LINE} (line 110 at the analysed commit d16f7ba2ed)." in (
        installed
    )
    assert "https://github.com/tracel-ai/burn/blob/d16f7ba2ed" in result.stdout
    # The older version holds other wording: the drift says so, at the line with what is left of it.
    old = section(
        machine.run("--full", "--format", "plain", input=registry_backtrace("/home/runner", "0.19.0")).stdout,
        "Library source (installed)",
    )
    assert "burn-autodiff 0.19.0" in old.split("\n")[0]
    assert "Drift: the message's wording differs from the analysed commit d16f7ba2ed" in old
    assert highlighted(old).endswith('panic!("Cannot turn a non leaf tensor into a tracked tensor")')
    # The registry path of the backtrace exists here: read as it stands.
    machine_path = machine.home / ".cargo" / "registry" / "src" / REGISTRY_INDEX / "burn-autodiff-0.20.1"
    write(machine_path / "src" / "tensor.rs", FAKE_TENSOR_RS)
    here = events(machine.run("--format", "json", input=registry_backtrace(str(machine.home), "0.20.1")))
    source = here[0]["matches"][0]["library_source"]
    assert source["path"] == str(machine_path / "src" / "tensor.rs")
    assert source["version"] == "burn-autodiff 0.20.1" and source["drift"] == "moved"
    assert source["line"] == FAKE_TENSOR_LINE and source["lines"][6] == f'            panic!("{SEED_MESSAGE}")'


def test_crate_newest_installed_without_a_version_in_the_frames(machine: Machine) -> None:
    machine.crate("burn-autodiff", "0.9.0", {"src/tensor.rs": FAKE_OLD_TENSOR_RS})
    machine.crate("burn-autodiff", "0.20.1", {"src/tensor.rs": FAKE_TENSOR_RS})
    machine.crate("burn-autodiff", "0.20.1-pre.1", {"src/tensor.rs": FAKE_OLD_TENSOR_RS})
    source = events(machine.run("--format", "json", SEED_MESSAGE))[0]["matches"][0]["library_source"]
    assert source["version"] == "burn-autodiff 0.20.1", "a release after its pre-release; 0.20 after 0.9"
    # A version the backtrace names that is not here: the newest, and a note saying so.
    note = events(machine.run("--format", "json", input=registry_backtrace("/home/runner", "0.18.0")))[0]["matches"][0][
        "library_source"
    ]["note"]
    assert note.endswith("The backtrace's burn-autodiff 0.18.0 is not installed here; this is 0.20.1.")


# --- Python: the real standard library, a faked site-packages -------------------------------------------------------


def python_stderr(*args: str, cwd: Path) -> str:
    done = subprocess.run([sys.executable, *args], capture_output=True, text=True, cwd=cwd)
    assert done.returncode == 1
    return done.stderr


def test_real_json_decode_error_shows_the_real_decoder(machine: Machine) -> None:
    decoder = subprocess.run(
        [sys.executable, "-c", "import json.decoder; print(json.decoder.__file__)"], capture_output=True, text=True
    ).stdout.strip()
    stderr = python_stderr("-c", "import json; json.loads('')", cwd=machine.cwd)
    result = machine.run("--full", "--format", "plain", input=stderr)
    assert result.returncode == 0, result.stderr
    installed = section(result.stdout, "Library source (installed)")
    first = installed.split("\n")[0]
    assert first.startswith(f"  {decoder}:") and " · Python 3." in first
    assert 'raise JSONDecodeError("Expecting value", s, err.value) from None' in highlighted(installed)
    assert "Your code" not in result.stdout, "<string> names no file"
    source = events(machine.run("--format", "json", input=stderr))[0]["matches"][0]["library_source"]
    assert source["path"] == decoder and source["drift"] in ("none", "moved")
    assert "Expecting value" in source["lines"][source["line"] - source["start"]]


def test_real_script_shows_your_line_and_the_decoder(machine: Machine) -> None:
    script = write(
        machine.cwd / "load_config.py",
        'import json\n\n\ndef load(text):\n    return json.loads(text)\n\n\nload("")\n',
    )
    stderr = python_stderr(script.name, cwd=machine.cwd)
    result = machine.run("--full", "--format", "plain", input=stderr)
    mine = section(result.stdout, "Your code")
    assert mine.split("\n")[0] == f"  {script}:5"
    assert highlighted(mine) == "  > 5 |     return json.loads(text)"
    assert "json/decoder.py:" in section(result.stdout, "Library source (installed)").split("\n")[0]
    # Markdown and rich show the same lines.
    markdown = machine.run("--full", "--format", "markdown", input=stderr).stdout
    assert "### Your code" in markdown and "> 5 |     return json.loads(text)" in markdown
    rich = machine.run("--full", "--format", "rich", "--color", "never", input=stderr).stdout
    assert "Library source (installed)" in rich and "return json.loads(text)" in rich


def fake_site(root: Path) -> Path:
    site = root / "lib" / "python3.11" / "site-packages"
    write(site / "torch" / "__init__.py", '"""torch, as a test stand-in."""\n')
    write(site / "torch" / "autograd" / "__init__.py", FAKE_AUTOGRAD)
    write(site / "torch-2.6.0.dist-info" / "METADATA", "Metadata-Version: 2.1\nName: torch\nVersion: 2.6.0\n")
    return site


def test_torch_from_the_frames_and_from_the_python_path(machine: Machine) -> None:
    site = fake_site(machine.tmp / "venv")
    local = site / "torch" / "autograd" / "__init__.py"
    text = TORCH_GRAD.read_text(encoding="utf-8")
    # The frames name the faked site-packages: read there.
    result = machine.run("--full", "--format", "plain", input=text.replace(REAL_SITE, str(site)))
    installed = section(result.stdout, "Library source (installed)")
    assert installed.split("\n")[0] == f"  {local}:{FAKE_AUTOGRAD_LINE} · torch 2.6.0"
    assert (
        highlighted(installed)
        == f'  > {FAKE_AUTOGRAD_LINE} |                     "grad can be implicitly created only for scalar outputs"'
    )
    assert f"Drift: the message moved to line {FAKE_AUTOGRAD_LINE} (line 199 at the analysed commit 2236df1770)." in (
        installed
    )
    # Frames from another machine: the torch that this Python would import.
    elsewhere = text.replace(REAL_SITE, "/opt/ci/venv/lib/python3.11/site-packages")
    source = events(machine.run("--format", "json", input=elsewhere, PYTHONPATH=str(site)))[0]["matches"][0][
        "library_source"
    ]
    assert source["path"] == str(local) and source["version"] == "torch 2.6.0" and source["line"] == FAKE_AUTOGRAD_LINE


# --- module level: drift, and the frame's line as the place to look first -------------------------------------------


def local_paths(tmp: Path) -> LocalPaths:
    """Nothing installed: no toolchains, no registry, no standard library, no rustc."""
    return LocalPaths(
        roots=(tmp,),
        cargo_home=tmp / "cargo",
        rustup_home=tmp / "rustup",
        stdlib=None,
        python_version="Python 3",
        system_rust_src=(),
        rustc_on_path=False,
    )


def event_at(file: str, line: int, code: str | None = None) -> ErrorEvent:
    frame = Frame(file, line, code=code)
    return ErrorEvent("python", "ValueError", "m", location=frame, frames=(frame,), user_frame=frame)


WIDGET = Record(
    id="w",
    repo="acme/widgets",
    slug="w",
    errorMessage="widget count 3 does not match the gadget count 4",
    messagePattern="widget count {} does not match the gadget count {}",
    filePath="widgets/core.py",
    lineNumber=4,
    analyzedSha="a" * 40,
)


@pytest.mark.parametrize(
    ("body", "drift", "line"),
    [
        ("# a\n# b\n\nraise ValueError(f'widget count {a} does not match the gadget count {b}')\n", "none", 4),
        (
            "# a\n# b\n# c\n# d\n\nraise ValueError(f'widget count {a} does not match the gadget count {b}')\n",
            "moved",
            6,
        ),
        ("\n\nraise ValueError(f'count of widgets {a} does not match the gadget count {b}')\n", "changed", 3),
        ("raise ValueError('something else entirely')\n", "gone", None),
    ],
)
def test_drift(tmp_path: Path, body: str, drift: str, line: int | None) -> None:
    write(tmp_path / "site" / "widgets" / "core.py", body)
    frame_file = str(tmp_path / "site" / "widgets" / "core.py")
    found = library_source(WIDGET, event_at(frame_file, 1), local_paths(tmp_path))
    assert found is not None and found.drift == drift and found.line == line
    assert found.path == frame_file
    if line is None:
        assert found.lines == () and "not in this file (line 4 at the analysed commit aaaaaaaaaa)" in found.note


def test_the_frame_line_decides_between_two_places(tmp_path: Path) -> None:
    body = "".join(
        f"raise ValueError(f'widget count {{a}} does not match the gadget count {{b}}')  # {n}\n"
        if n in (3, 30)
        else "\n"
        for n in range(1, 40)
    )
    path = str(write(tmp_path / "widgets" / "core.py", body))
    paths = local_paths(tmp_path)
    assert library_source(WIDGET, event_at(path, 29), paths).line == 30  # type: ignore[union-attr]
    assert library_source(WIDGET, event_at(path, 2), paths).line == 3  # type: ignore[union-attr]
    # A frame in another folder named like the record's file, but not the library: relative paths use the roots.
    assert library_source(WIDGET, event_at("widgets/core.py", 29), paths).path == path  # type: ignore[union-attr]


def test_every_bundled_record_gives_none_with_nothing_installed(tmp_path: Path) -> None:
    """No record's path makes a lookup fail; with nothing installed, nothing is found."""
    paths = local_paths(tmp_path)
    records = bundled_records().records
    assert len(records) > 100
    from importlib.util import find_spec

    from tests.records.roundtrip.programs import PYTHON_REPOS

    def here(repo: str) -> bool:  # this Python's own standard library, and the packages installed beside it
        return repo in PYTHON_REPOS and (PYTHON_REPOS[repo] is None or find_spec(PYTHON_REPOS[repo]) is not None)

    for record in records:
        if not here(record.repo):
            assert library_source(record, event_at("<string>", 1), paths) is None, record.slug


TOKEN = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"  # a GitHub token's shape, made up for this test


def test_library_lines_are_redacted_and_counted_a_file_of_your_own_folder_that_looks_like_one_too(
    tmp_path: Path,
) -> None:
    """A library file shown may be a file of your folder whose path only looks like a library location: its
    lines are redacted as your own code is, and the report's counts hold them."""
    from leafexplain.models import Candidate, Finding, Report
    from leafexplain.session import located_in

    grad = "grad can be implicitly created only for scalar outputs"
    torch = Record("t", "pytorch/pytorch", "t", grad, grad, filePath="torch/autograd/__init__.py", lineNumber=2)
    project = tmp_path / "project"
    library = project / "lib" / "site-packages" / "torch" / "autograd" / "__init__.py"
    library.parent.mkdir(parents=True)
    library.write_text(f'TOKEN = "{TOKEN}"\nraise RuntimeError("{grad}")\n# the end\n')
    paths = local_paths(tmp_path)._replace(roots=(str(project),))
    frame = Frame(str(library), 2)
    event = ErrorEvent("python", "RuntimeError", grad, location=frame, frames=(frame,))
    report = Report((Finding(event, (Candidate(torch, 100.0, "regex"),)),), 85.0, redacted=(("jwt", 1),))
    located = located_in(report, paths)
    shown = located.located[0].library[0]  # type: ignore[index]
    assert shown is not None and shown.line == 2 and TOKEN not in repr(shown.lines)
    assert shown.lines[0] == 'TOKEN = "ghp_…[redacted]"'
    assert dict(located.redacted) == {"jwt": 1, "github-token": 1}, "the input's count and the library's"
    unredacted = located_in(report._replace(redacted=None), paths)
    assert TOKEN in repr(unredacted.located[0].library[0]) and unredacted.redacted is None  # type: ignore[index]
