#!/usr/bin/env python3
"""Regenerate tests/corpus/outputs: run real rustc, cargo, python and pytest, keep what they print.

Usage: python tools/make_corpus.py [--only SUBSTRING]

Every file under tests/corpus/outputs/ comes from here. Most are a real program's combined
stdout and stderr. A few are derived from a real output by a stated transformation (the
panic formats of older Rust releases, CI log prefixes, colour codes and CRLF line ends), since
this machine has only one Rust toolchain; burn records (and wgpu's, cubecl's and ndarray's) get their
exact panic text laid into each panic format, since those crates cannot be built without the crates registry.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the records' programs are run by the test suite's own runner
CORPUS = ROOT / "tests" / "corpus"
OUTPUTS = CORPUS / "outputs"
SCENARIOS = CORPUS / "scenarios"
# A fixed work folder keeps the paths printed in the outputs the same from run to run.
WORK = Path("/tmp/leafexplain-corpus")
BURN_VERSION = "0.20.1"
REGISTRY = "/home/user/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f"


def run(cmd: list[str], cwd: Path, env: dict[str, str] | None = None, timeout: int = 300) -> str:
    full_env = {**os.environ, "RUST_BACKTRACE": "0", "NO_COLOR": "1", "CARGO_TERM_COLOR": "never", **(env or {})}
    full_env.pop("PYTHONWARNINGS", None)
    done = subprocess.run(cmd, cwd=cwd, env=full_env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=timeout)
    return done.stdout.decode("utf-8", errors="replace")


def write(name: str, text: str) -> None:
    path = OUTPUTS / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8", newline="")
    print(f"wrote {path.relative_to(ROOT)} ({len(text)} chars)")


# --- real runs ---------------------------------------------------------------------------


def cargo_outputs() -> dict[str, str]:
    work = WORK / "cargo"
    shutil.rmtree(work, ignore_errors=True)
    shutil.copytree(SCENARIOS / "cargo", work)
    target = {"CARGO_TARGET_DIR": str(WORK / "target")}
    cargo = ["cargo", "--offline"]
    run([*cargo, "build", "--quiet"], work, target)
    out = {
        "rust/cargo-run-leaf.txt": run([*cargo, "run", "--bin", "trainer", "--", "leaf"], work, target),
        "rust/cargo-run-backtrace.txt": run(
            [*cargo, "run", "--bin", "trainer", "--", "leaf"], work, {**target, "RUST_BACKTRACE": "1"}
        ),
        "rust/cargo-run-backtrace-full.txt": run(
            [*cargo, "run", "--bin", "trainer", "--", "unwrap"], work, {**target, "RUST_BACKTRACE": "full"}
        ),
        "rust/cargo-run-unwrap.txt": run([*cargo, "run", "--bin", "trainer", "--", "unwrap"], work, target),
        "rust/cargo-run-assert.txt": run([*cargo, "run", "--bin", "trainer", "--", "assert"], work, target),
        "rust/cargo-run-thread.txt": run([*cargo, "run", "--bin", "trainer", "--", "thread"], work, target),
        "rust/cargo-run-unknown.txt": run([*cargo, "run", "--bin", "trainer", "--", "quota"], work, target),
        "rust/cargo-test-three.txt": run(
            [*cargo, "test", "-p", "trainer", "--lib", "three_", "--", "--test-threads=1"], work, target
        ),
        "rust/cargo-test-grouped.txt": run(
            [*cargo, "test", "-p", "trainer", "--lib", "grouped_", "--", "--test-threads=1"], work, target
        ),
    }
    return out


def rustc_outputs() -> dict[str, str]:
    """`cargo build` of a small crate that fails to compile: type and name errors (E0308, E0425, E0599), borrow
    errors with a warning (E0382, E0502: rustc checks borrows only once the types are right), and a build and a
    passing `cargo test` with warnings only, which hold no error."""
    work = WORK / "rustc"
    shutil.rmtree(work, ignore_errors=True)
    shutil.copytree(SCENARIOS / "rustc", work)
    target = {"CARGO_TARGET_DIR": str(WORK / "rustc-target")}
    cargo = ["cargo", "--offline"]
    out = {
        f"rust/cargo-build-{name}.txt": run([*cargo, "build", "--bin", name], work, target)
        for name in ("types", "borrows", "warnings")
    }
    out["rust/cargo-test-warnings.txt"] = run([*cargo, "test", "--bin", "warnings"], work, target)
    # The same diagnostics as JSON: cargo's `--message-format=json` (what editors and CI tools run) and rustc's own.
    for name in ("types", "borrows", "warnings"):
        out[f"rust/cargo-build-{name}-json.txt"] = run(
            [*cargo, "build", "--bin", name, "--message-format=json"], work, target
        )
    out["rust/rustc-borrows-json.txt"] = run(
        ["rustc", "--edition", "2021", "--error-format=json", "--out-dir", str(WORK / "rustc-out"), "src/borrows.rs"],
        work,
    )
    return out


def python_outputs() -> dict[str, str]:
    work = WORK / "python"
    shutil.rmtree(work, ignore_errors=True)
    shutil.copytree(SCENARIOS / "python", work)
    # Kept out of the repository as a file: it would not parse, which is the point.
    (work / "syntax_error.py").write_text("def train(epochs:\n    return epochs\n")
    py = [sys.executable]
    pytest = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-c", "/dev/null", "--rootdir", str(work)]
    out = {
        name: run([*py, f"{name}.py"], work)
        for name in ("json_decode", "chain_cause", "chain_context", "exception_group", "recursion", "syntax_error")
    }
    out = {f"python/{k.replace('_', '-')}.txt": v for k, v in out.items()}
    out["python/pytest-long.txt"] = run([*pytest, "check_failing.py"], work)
    out["python/pytest-summary.txt"] = run([*pytest, "-q", "--tb=no", "-rf", "check_failing.py"], work)
    out["python/pytest-native.txt"] = run([*pytest, "--tb=native", "-q", "check_failing.py"], work)
    out["python/pytest-short.txt"] = run([*pytest, "--tb=short", "-q", "check_failing.py"], work)
    return out


def record_program_outputs(only: str = "") -> dict[str, str]:
    """The real output of each record's "before" program (its exampleFix), for every record that can run
    here; Rust ones also with RUST_BACKTRACE=1. A record that cannot run here keeps its old output. `only`:
    just the records whose output's name contains it (the others are not run)."""
    from leafexplain.records import load_paths
    from tests.records.roundtrip.programs import runner, skip_reasons, why_not_runnable

    folders = {"python/cpython": "python", "pytorch/pytorch": "pytorch", "numpy/numpy": "numpy"}
    folders["rust-lang/rust"] = "rust"
    skipped = skip_reasons()
    out: dict[str, str] = {}
    work = WORK / "records"
    shutil.rmtree(work, ignore_errors=True)
    with runner(work) as run:
        for record in load_paths([str(ROOT / "records")]).records:
            reason = skipped.get(record.id) or why_not_runnable(record)
            if record.repo not in folders or reason:
                continue
            name = f"records/{folders[record.repo]}/{record.slug}"
            if only not in f"{name}.txt" and only not in f"{name}.backtrace.txt":
                continue
            out[f"{name}.txt"] = run.program(record, "before").output
            if record.language == "rust" and record.errorType != "compile":  # a compile error has no backtrace
                source = run.work / record.slug / "before" / "main.rs"
                out[f"{name}.backtrace.txt"] = run.rust(source.read_text(), source.parent, backtrace=True).output
    shutil.rmtree(work, ignore_errors=True)  # the programs' paths stay in the outputs, not on this machine
    return out


FATAL_PROGRAMS = {
    "crash.py": """\
        import ctypes


        def read_header(address):
            return ctypes.string_at(address)


        read_header(0)
        """,
    "crash_in_thread.py": """\
        import ctypes
        import threading


        def load_shard(address):
            return ctypes.string_at(address)


        worker = threading.Thread(target=load_shard, args=(0,), name="loader")
        worker.start()
        worker.join()
        """,
    "throw.cpp": """\
        #include <stdexcept>

        int load(int shard) {
            if (shard > 2) throw std::runtime_error("checkpoint shard 3 is missing");
            return shard;
        }

        int main() { return load(3); }
        """,
    "double_panic.rs": """\
        struct Guard;

        impl Drop for Guard {
            fn drop(&mut self) {
                panic!("cleanup failed");
            }
        }

        fn main() {
            let _guard = Guard;
            panic!("first failure");
        }
        """,
    "no_unwind.rs": """\
        extern "C" fn callback(value: i32) -> i32 {
            if value < 0 {
                panic!("negative value {value}");
            }
            value
        }

        fn main() {
            println!("{}", callback(-1));
        }
        """,
    "overflow.rs": """\
        fn depth(n: u64) -> u64 {
            let frame = [n; 64];
            1 + depth(n + 1) + frame[n as usize % 64] % 2
        }

        fn main() {
            println!("{}", depth(0));
        }
        """,
    "abort_on_panic.rs": """\
        fn main() {
            let shards: Vec<u32> = Vec::new();
            println!("{}", shards[0]);
        }
        """,
}


def fatal_outputs() -> dict[str, str]:
    """Runs that end without an exception's traceback: faulthandler's dump, an uncaught C++ exception, Rust's
    aborts, a child killed, each run through bash as a user runs it, so that the shell's line that names the
    signal (`bash: line 1: PID Segmentation fault  command`) ends the output as it does on a terminal."""
    import textwrap

    work = WORK / "fatal"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    for name, source in FATAL_PROGRAMS.items():
        (work / name).write_text(textwrap.dedent(source))
    run(["g++", "-O0", "-o", "throw", "throw.cpp"], work)
    for name in ("double_panic", "no_unwind", "overflow"):
        run(["rustc", "--edition", "2021", "-o", name, f"{name}.rs"], work)
    run(["rustc", "--edition", "2021", "-C", "panic=abort", "-o", "abort_on_panic", "abort_on_panic.rs"], work)
    # `python` as the user types it: the shell's line repeats the command.
    path = {"PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}

    def shell(command: str) -> str:
        return run(["bash", "-c", f"{command}; true"], work, path)

    return {
        "fatal/python-faulthandler-segfault.txt": shell("python -X faulthandler crash.py"),
        "fatal/python-faulthandler-thread.txt": shell("python -X faulthandler crash_in_thread.py"),
        "fatal/cpp-terminate-runtime-error.txt": shell("./throw"),
        "fatal/rust-double-panic.txt": shell("./double_panic"),
        "fatal/rust-non-unwinding-panic.txt": shell("./no_unwind"),
        "fatal/rust-stack-overflow.txt": shell("./overflow"),
        "fatal/rust-panic-abort.txt": shell("./abort_on_panic"),
        "fatal/shell-killed.txt": shell("sleep 30 & kill -KILL $!; wait $!"),
    }


def registry_outputs() -> dict[str, str]:
    """A panic raised in a crate of cargo's registry, as `cargo run` prints it without and with a backtrace: the
    stand-in crate gadgets-0.3.1 laid where cargo keeps a registry crate (the registry cannot be reached here),
    a path dependency of the program, so that rustc prints its registry path."""
    work = WORK / "registry"
    shutil.rmtree(work, ignore_errors=True)
    crate = work / ".cargo" / "registry" / "src" / REGISTRY.rsplit("/", 1)[-1] / "gadgets-0.3.1"
    shutil.copytree(SCENARIOS / "registry" / "gadgets-0.3.1", crate)
    shutil.copytree(SCENARIOS / "registry" / "app", work / "app")
    with (work / "app" / "Cargo.toml").open("a", encoding="utf-8") as manifest:
        manifest.write(f'\n[dependencies]\ngadgets = {{ path = "{crate}" }}\n')
    target = {"CARGO_TARGET_DIR": str(WORK / "registry-target")}
    cargo = ["cargo", "--offline"]
    run([*cargo, "build", "--quiet"], work / "app", target)
    return {
        "rust/cargo-run-registry-crate.txt": run([*cargo, "run", "--", "12"], work / "app", target),
        "rust/cargo-run-registry-crate-backtrace.txt": run(
            [*cargo, "run", "--", "12"], work / "app", {**target, "RUST_BACKTRACE": "1"}
        ),
    }


# Each program fails with an std error whose cause has a record, carried the ways a user meets it: behind
# `unwrap` and `expect`, returned from `main` (`Error: ...`), in another thread, with a backtrace. The name is
# the cause's record slug, then the way.
UNWRAP_CAUSE_PROGRAMS = {
    "io-error-kind-not-a-directory.expect": """\
        fn main() {
            let models = std::fs::read_dir("/etc/hostname").expect("list the models folder");
            println!("{}", models.count());
        }
        """,
    "io-error-kind-already-exists.main-returns-err": """\
        fn main() -> std::io::Result<()> {
            let dir = std::env::temp_dir().join(format!("causes-{}", std::process::id()));
            std::fs::create_dir(&dir)?;
            let again = std::fs::create_dir(&dir);
            std::fs::remove_dir(&dir)?;
            again
        }
        """,
    "io-error-kind-storage-full.kind-form": """\
        use std::io::{Error, ErrorKind};

        fn save(_bytes: &[u8]) -> Result<(), Error> {
            Err(Error::from(ErrorKind::StorageFull)) // a library reports the kind alone
        }

        fn main() {
            save(b"checkpoint").unwrap();
        }
        """,
    "read-settings-toml-os-code-2-kind-notfound-message.custom-form": """\
        use std::io::{Error, ErrorKind};

        fn open_model(name: &str) -> Result<(), Error> {
            Err(Error::new(ErrorKind::NotFound, format!("no model named {name}")))
        }

        fn main() {
            open_model("resnet-50").unwrap();
        }
        """,
    "io-error-kind-connection-reset.in-a-thread": """\
        use std::io::{Read, Write};
        use std::net::{TcpListener, TcpStream};
        use std::thread;
        use std::time::Duration;

        fn main() {
            let listener = TcpListener::bind("127.0.0.1:0").unwrap();
            let addr = listener.local_addr().unwrap();
            let client = thread::Builder::new().name("fetcher".into()).spawn(move || {
                let mut stream = TcpStream::connect(addr).unwrap();
                stream.write_all(b"GET /\\r\\n").unwrap();
                thread::sleep(Duration::from_millis(100));
                let mut reply = [0u8; 16];
                stream.read(&mut reply).unwrap()
            }).unwrap();
            let (server_side, _) = listener.accept().unwrap();
            thread::sleep(Duration::from_millis(50));
            drop(server_side);
            let _ = client.join();
        }
        """,
    "parseboolerror.expect": """\
        fn main() {
            let verbose: bool = "yes".parse().expect("VERBOSE must be true or false");
            println!("{verbose}");
        }
        """,
    "trycharfromerror.unwrap": """\
        fn main() {
            let byte = u8::try_from('€').unwrap();
            println!("{byte}");
        }
        """,
    "senderror-channel-receiver-dropped.unwrap": """\
        fn main() {
            let (tx, rx) = std::sync::mpsc::channel::<u32>();
            drop(rx);
            tx.send(1).unwrap();
        }
        """,
}


def unwrap_cause_outputs() -> dict[str, str]:
    """Real panics of std errors that have a record, each behind its wrapper; also with RUST_BACKTRACE=1."""
    import textwrap

    work = WORK / "causes"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    out: dict[str, str] = {}
    for name, source in UNWRAP_CAUSE_PROGRAMS.items():
        program = name.replace(".", "_").replace("-", "_")
        (work / f"{program}.rs").write_text(textwrap.dedent(source))
        run(["rustc", "--edition", "2021", "-o", program, f"{program}.rs"], work)
        out[f"causes/{name}.txt"] = run([f"./{program}"], work)
        out[f"causes/{name}.backtrace.txt"] = run([f"./{program}"], work, {"RUST_BACKTRACE": "1"})
    shutil.rmtree(work, ignore_errors=True)
    return out


# --- derived from real runs ----------------------------------------------------------------


def _without_thread_id(text: str) -> str:
    """The 1.73-1.90 header: the same, without the thread id that 1.91 added."""
    return re.sub(r"^(thread '[^']*') \(\d+\)", r"\1", text, flags=re.M)


def old_format(text: str, open_q: str = "'", close_q: str = "'") -> str:
    lines = text.split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        m = re.match(r"^thread '([^']*)' \(\d+\) panicked at (\S+):$", lines[i])
        if not m:
            out.append(lines[i])
            i += 1
            continue
        message: list[str] = []
        i += 1
        while i < len(lines) and lines[i] and not lines[i].startswith(("note:", "stack backtrace:")):
            message.append(lines[i])
            i += 1
        body = "\n".join(message)
        out.append(f"thread '{m.group(1)}' panicked at {open_q}{body}{close_q}, {m.group(2)}")
    return "\n".join(out)


def with_prefixes(text: str, prefix: Callable[[int], str]) -> str:
    return "".join(prefix(n) + line for n, line in enumerate(text.splitlines(keepends=True)))


def with_ansi_crlf(text: str) -> str:
    coloured = re.sub(r"^(thread .*)$", "\x1b[1m\x1b[31m\\1\x1b[0m", text, flags=re.M)
    coloured = re.sub(r"^(\s+)(Compiling|Finished|Running)", "\\1\x1b[1m\x1b[32m\\2\x1b[0m", coloured, flags=re.M)
    return coloured.replace("\n", "\r\n")


def derived(real: dict[str, str]) -> dict[str, str]:
    leaf = real["rust/cargo-run-leaf.txt"]
    assertion = real["rust/cargo-run-assert.txt"]
    stamp = "2026-11-30T10:15:{:02d}.{:07d}Z "
    return {
        "derived/rust-1.73-header.txt": _without_thread_id(leaf),
        "derived/rust-old-one-line.txt": old_format(leaf),
        "derived/rust-old-typographic.txt": old_format(leaf, "\u2018", "\u2019"),
        "derived/rust-old-multiline.txt": old_format(assertion),
        "derived/ci-timestamps.txt": with_prefixes(
            real["python/json-decode.txt"], lambda n: stamp.format(n % 60, 1234567 + n)
        ),
        "derived/rank-prefix.txt": with_prefixes(real["python/chain-cause.txt"], lambda n: "[rank0]: "),
        "derived/ansi-crlf.txt": with_ansi_crlf(leaf),
    }


# The crates laid out like burn's (crates.io cannot be reached here either): the release burn 0.20.1's Cargo.lock
# has, where each record's file sits in cargo's registry, and the panic's place. A wgpu validation error panics
# in wgpu's own error handler (`wgpu error: …`) or fatal-error path (`Error in …`), not at the error's literal.
WGPU_VERSION, CUBECL_VERSION, NDARRAY_VERSION = "22.1.0", "0.9.0", "0.17.2"  # wgpu: the records' release


def _wgpu_where(record: dict) -> str:
    handler = f"{REGISTRY}/wgpu-{WGPU_VERSION}/src/backend/wgpu_core.rs"
    if record["errorMessage"].startswith("wgpu error: "):
        return f"{handler}:3411:5"
    if record["errorMessage"].startswith("Error in "):
        return f"{handler}:317:9"
    if record["filePath"].startswith("examples/"):  # the examples' `.expect(…)`, copied into the user's main.rs
        return "src/main.rs:24:10"
    crate, rest = record["filePath"].split("/", 1)
    return f"{REGISTRY}/{crate}-{WGPU_VERSION}/{rest}:{record['lineNumber']}:9"


def _crate_where(version: str, crates_dir: bool, name: str = "") -> Callable[[dict], str]:
    def where(record: dict) -> str:
        path = record["filePath"] or "src/lib.rs"
        if crates_dir:
            path = re.sub(r"^crates/([^/]+)/", rf"{REGISTRY}/\1-{version}/", path)
        else:
            path = f"{REGISTRY}/{name}-{version}/{path}"
        return f"{path}:{record['lineNumber'] or 1}:9"

    return where


LAID_OUT = {  # records folder -> (the outputs' folder, the panic's place)
    "tracel-ai/burn": ("burn", _crate_where(BURN_VERSION, crates_dir=True)),
    "gfx-rs/wgpu": ("wgpu", _wgpu_where),
    "tracel-ai/cubecl": ("cubecl", _crate_where(CUBECL_VERSION, crates_dir=True)),
    "rust-ndarray/ndarray": ("ndarray", _crate_where(NDARRAY_VERSION, crates_dir=False, name="ndarray")),
}


def burn_outputs() -> dict[str, str]:
    """Each burn (and wgpu, cubecl, ndarray) record's message in the three panic header formats, at its place."""
    out: dict[str, str] = {}
    for repo, (folder, where_of) in LAID_OUT.items():
        for path in sorted((ROOT / "records" / repo).glob("*.json")):
            record = json.loads(path.read_text())["record"]
            where = where_of(record)
            message = record["errorMessage"]
            note = "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n"
            name = f"records/{folder}/{record['slug']}"
            out[f"{name}.new.txt"] = f"thread 'main' (4242) panicked at {where}:\n{message}\n{note}"
            out[f"{name}.mid.txt"] = f"thread 'main' panicked at {where}:\n{message}\n{note}"
            out[f"{name}.old.txt"] = f"thread 'main' panicked at '{message}', {where}\n{note}"
    return out


def ipython_outputs() -> dict[str, str]:
    """A traceback as IPython (Jupyter, Colab) prints it, from each IPython named in LEAFEXPLAIN_IPYTHONS
    (paths separated by `:`; IPython 8 and 7 print different layouts), else the one on PATH."""
    work = WORK / "ipython"
    shutil.rmtree(work, ignore_errors=True)
    shutil.copytree(SCENARIOS / "ipython", work)
    found = os.environ.get("LEAFEXPLAIN_IPYTHONS", "").split(":") if os.environ.get("LEAFEXPLAIN_IPYTHONS") else []
    found = found or [p for p in [shutil.which("ipython")] if p]
    out = {}
    for ipython in found:
        major = run([ipython, "--version"], work).strip().split(".")[0]
        cell = [ipython, "--colors=NoColor", "--no-banner", "-c", "exec(open('cell.py').read())"]
        out[f"python/ipython{major}-json.txt"] = run(cell, work)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", default="", help="only write outputs whose name contains this")
    args = parser.parse_args()
    WORK.mkdir(parents=True, exist_ok=True)
    real = {**cargo_outputs(), **rustc_outputs(), **python_outputs(), **ipython_outputs(), **fatal_outputs()}
    real |= registry_outputs() | unwrap_cause_outputs()
    everything = {**real, **derived(real), **record_program_outputs(args.only), **burn_outputs()}
    for name, text in sorted(everything.items()):
        if args.only in name:
            write(name, text)
    # The example that `leafexplain demo` explains: a real `cargo run` with a backtrace.
    example = ROOT / "examples" / "burn-panic.txt"
    example.write_text(real["rust/cargo-run-backtrace.txt"], encoding="utf-8", newline="")
    print(f"wrote {example.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
