"""`cargo leafexplain ...`: the cargo-leafexplain console script, with real cargo, as cargo finds it on PATH."""

from __future__ import annotations

import os
import pty
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from leafexplain.cli.cargo import main, run_arguments
from tests.conftest import Isolated

BIN = Path(sys.executable).parent
LIB = """
pub fn first_even(values: &[i32]) -> Option<i32> {
    values.iter().copied().find(|v| v % 2 == 0)
}

#[cfg(test)]
mod tests {
    #[test]
    fn no_even_value() {
        let found = super::first_even(&[1, 3, 5]).unwrap();
        assert_eq!(found, 2);
    }
}
"""


def test_the_arguments_cargo_passes_become_runs() -> None:
    assert run_arguments(["leafexplain", "test", "--lib"], "/c/cargo") == ["run", "--", "/c/cargo", "test", "--lib"]
    assert run_arguments(["leafexplain", "--format", "jsonl", "-v", "build", "--release"], "cargo") == [
        "run", "--format", "jsonl", "-v", "--", "cargo", "build", "--release",
    ]  # fmt: skip
    assert run_arguments(["leafexplain", "test", "--help"], "cargo") == ["run", "--", "cargo", "test", "--help"]
    assert run_arguments(["leafexplain"], "cargo") is None and run_arguments(["leafexplain", "--help"], "cargo") is None


def test_no_cargo_command_is_the_usage(cli: Isolated) -> None:
    from tests.conftest import MockEnvironment

    env = MockEnvironment(cli.environ)
    assert main(["leafexplain"], env) == 2 and env.written.startswith("Usage: cargo leafexplain")
    env = MockEnvironment(cli.environ)
    assert main(["leafexplain", "--help"], env) == 0 and "CARGO-COMMAND" in env.written


@pytest.fixture(scope="module")
def crate(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """A crate whose test panics, its target folder in tmp, and a user whose PATH finds this cargo-leafexplain."""
    if not shutil.which("cargo"):
        pytest.skip("cargo is not installed")
    if not (BIN / "cargo-leafexplain").is_file():
        pytest.skip("the cargo-leafexplain script is not installed beside this Python (pip install -e .)")
    tmp = tmp_path_factory.mktemp("crate")
    (tmp / "panics" / "src").mkdir(parents=True)
    (tmp / "panics" / "Cargo.toml").write_text('[package]\nname = "panics"\nversion = "0.1.0"\nedition = "2021"\n')
    (tmp / "panics" / "src" / "lib.rs").write_text(LIB.lstrip())
    env = Isolated(tmp, CARGO_TARGET_DIR=str(tmp / "target"), RUST_BACKTRACE="0").environ
    env["PATH"] = f"{BIN}{os.pathsep}{env.get('PATH', '')}"  # cargo runs cargo-leafexplain from PATH
    for name in ("CARGO_TERM_COLOR", "NO_COLOR"):
        env.pop(name, None)
    built = subprocess.run(
        ["cargo", "test", "--offline", "--no-run", "-q"], cwd=tmp / "panics", env=env, capture_output=True, timeout=600
    )
    assert built.returncode == 0, built.stderr.decode()[-2000:]
    return tmp / "panics", env


def test_cargo_leafexplain_test_exits_101_and_explains_the_panic(crate: tuple[Path, dict[str, str]]) -> None:
    work, env = crate
    done = subprocess.run(
        ["cargo", "leafexplain", "test", "--offline"], cwd=work, env=env, capture_output=True, timeout=600
    )
    out, err = done.stdout.decode(), done.stderr.decode()
    assert done.returncode == 101, err[-2000:]
    assert "test tests::no_even_value ... FAILED" in out and "test result: FAILED" in out  # cargo's own, passed through
    assert "panic · Rust std · exact wording" in err and "leafexplain show b0d1b296c715cde5" in err
    assert "at:      src/lib.rs:9:51 · test tests::no_even_value" in err  # your line, shown below it


def test_cargo_keeps_its_colour_on_a_terminal(crate: tuple[Path, dict[str, str]]) -> None:
    """Our stdout a terminal: cargo colours its own lines (`error: test failed`) though its stderr is our pipe."""
    work, env = crate
    main_fd, child_fd = pty.openpty()
    command = ["cargo", "leafexplain", "--format", "concise", "test", "--offline"]
    with subprocess.Popen(command, cwd=work, env=env, stdout=child_fd, stderr=subprocess.PIPE) as process:
        os.close(child_fd)
        shown = b""
        while True:
            try:
                chunk = os.read(main_fd, 65536)
            except OSError:  # the child closed its end
                break
            if not chunk:
                break
            shown += chunk
        err = process.stderr.read().decode() if process.stderr else ""
    os.close(main_fd)
    assert process.returncode == 101
    assert b"test result: FAILED" in shown
    # cargo was told to keep its colour (CARGO_TERM_COLOR=always): its own lines on stderr, passed through
    assert "\x1b[" in err.split("src/lib.rs:9:51: error:")[0], err[-1500:]
    assert "src/lib.rs:9:51: error: panic: called `Option::unwrap()` on a `None` value [b0d1b296c715cde5]" in err
