"""Regenerate outputs/ by running every program in programs/ for real.

    python tests/corpus/common_errors/make.py            # all cases
    python tests/corpus/common_errors/make.py key_error  # only the named cases (output names without .txt)

Python programs run with this Python (`sys.executable`), PyTorch ones only when torch is installed
(skipped with a note otherwise); Rust programs are compiled with `rustc --edition 2021` and run,
the two cargo projects with `cargo test` / `cargo run` (offline: they have no dependencies). Each
runs in an empty temporary folder, so that nothing it looks for exists and nothing it writes lands
here. The output file is what the run printed, stdout and stderr together in the order they came
(`2>&1`), as a user piping it into leafexplain would have it.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
PROGRAMS = HERE / "programs"
OUTPUTS = HERE / "outputs"
TIMEOUT = 600

# output name -> (how to run it, the program, RUST_BACKTRACE=1 or not)
PYTHON = [
    "key_error",
    "file_not_found",
    "name_error",
    "import_error_name",
    "circular_import",
    "never_closed",
    "indentation_error",
    "concat_str_int",
    "unhashable_type",
    "unpack_none",
    "json_set",
    "float_not_callable",
    "convert_str_float",
    "asyncio_run_nested",
    "pickle_lock",
    "assertion_error",
]
TORCH = [
    "torch_scalar_type_float_double",
    "torch_m1_m2_dtype",
    "torch_mat1_mat2_dtype",
    "torch_target_dtype",
    "torch_embedding_indices",
    "torch_conv2d_input_dims",
    "torch_empty_parameter_list",
    "torch_stack_unequal",
    "torch_sparse_backend",
    "torch_written_to_overlap",
    "torch_dataloader_segfault",
    "torch_dataloader_exit",
]
RUSTC = ["rust_todo", "rust_unimplemented", "rust_unreachable", "rust_expect_err", "rust_stack_overflow"]
RUSTC += ["rust_from_utf8_unwrap"]
RUSTC_BACKTRACE = ["rust_unreachable", "rust_expect_err", "rust_from_utf8_unwrap"]
CARGO = {"rust_assert_cargo_test": ["cargo", "test"], "rust_poison_cargo_run": ["cargo", "run"]}
CARGO_BACKTRACE = ["rust_poison_cargo_run"]


def child_env(backtrace: bool) -> dict[str, str]:
    env = dict(os.environ)
    for name in ("RUST_BACKTRACE", "CARGO_TARGET_DIR", "CARGO_TERM_COLOR", "PYTHONPATH", "PYTHONSTARTUP"):
        env.pop(name, None)
    if backtrace:
        env["RUST_BACKTRACE"] = "1"
    env["PYTHONUNBUFFERED"] = "1"  # prints interleave with the traceback as on a terminal
    env["PYTHONDONTWRITEBYTECODE"] = "1"  # no __pycache__ left in programs/
    return env


def run(cmd: list[str], cwd: Path, env: dict[str, str]) -> bytes:
    proc = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=TIMEOUT)
    if proc.returncode == 0:
        raise SystemExit(f"{' '.join(cmd)} succeeded: a case must fail")
    return proc.stdout


def python_case(name: str, tmp: Path) -> bytes:
    program = PROGRAMS / name / "app.py" if (PROGRAMS / name).is_dir() else PROGRAMS / f"{name}.py"
    return run([sys.executable, str(program)], tmp, child_env(False))


def rustc_case(name: str, tmp: Path, backtrace: bool) -> bytes:
    binary = tmp / name
    # Compiled from programs/ with a relative path, as `rustc main.rs` would be: the panic names `name.rs`.
    subprocess.run(
        ["rustc", "--edition", "2021", "-o", str(binary), f"{name}.rs"],
        cwd=PROGRAMS,
        env=child_env(False),
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    return run([str(binary)], tmp, child_env(backtrace))


def cargo_case(name: str, tmp: Path, backtrace: bool) -> bytes:
    project = tmp / name
    shutil.copytree(PROGRAMS / name, project, ignore=shutil.ignore_patterns("target", "Cargo.lock"))
    return run([*CARGO[name], "--offline"], project, child_env(backtrace))


def jobs() -> list[tuple[str, str, str, bool]]:
    """(output name, kind, program name, backtrace)"""
    out = [(n, "python", n, False) for n in PYTHON] + [(n, "torch", n, False) for n in TORCH]
    out += [(n, "rustc", n, False) for n in RUSTC]
    out += [(f"{n}_backtrace", "rustc", n, True) for n in RUSTC_BACKTRACE]
    out += [(n, "cargo", n, False) for n in CARGO]
    out += [(f"{n}_backtrace", "cargo", n, True) for n in CARGO_BACKTRACE]
    return out


def main(argv: list[str]) -> int:
    wanted = set(argv)
    have_torch = importlib.util.find_spec("torch") is not None
    OUTPUTS.mkdir(exist_ok=True)
    for output, kind, program, backtrace in jobs():
        if wanted and output not in wanted:
            continue
        if kind == "torch" and not have_torch:
            print(f"skip {output}: torch is not installed")
            continue
        with tempfile.TemporaryDirectory(prefix="common-errors-") as tmp_name:
            tmp = Path(tmp_name)
            if kind in ("python", "torch"):
                text = python_case(program, tmp)
            elif kind == "rustc":
                text = rustc_case(program, tmp, backtrace)
            else:
                text = cargo_case(program, tmp, backtrace)
        (OUTPUTS / f"{output}.txt").write_bytes(text)
        print(f"wrote outputs/{output}.txt ({len(text)} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
