"""Every record's example fix works: the "after" code runs (Python) or compiles and runs (Rust std)."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from leafexplain.records import load_paths
from tests.conftest import RECORDS

ALL = load_paths([str(RECORDS)]).records
HAVE_TORCH = importlib.util.find_spec("torch") is not None


def after_part(fix: str, marker: str) -> str:
    return fix.split(f"\n{marker} after\n", 1)[1]


@pytest.mark.parametrize("record", [r for r in ALL if r.repo == "python/cpython"], ids=lambda r: r.slug)
def test_cpython_fix_runs(record, tmp_path: Path) -> None:
    script = tmp_path / "fix.py"
    script.write_text(after_part(record.exampleFix, "#"))
    done = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]


@pytest.mark.skipif(not HAVE_TORCH, reason="torch is not installed")
@pytest.mark.parametrize("record", [r for r in ALL if r.repo == "pytorch/pytorch"], ids=lambda r: r.slug)
def test_pytorch_fix_runs(record, tmp_path: Path) -> None:
    script = tmp_path / "fix.py"
    script.write_text(after_part(record.exampleFix, "#"))
    done = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]


@pytest.mark.skipif(shutil.which("rustc") is None, reason="rustc is not installed")
def test_rust_std_fixes_compile_and_run(tmp_path: Path) -> None:
    failures = []
    for record in (r for r in ALL if r.repo == "rust-lang/rust"):
        source = tmp_path / f"{record.slug.replace('-', '_')}.rs"
        source.write_text(after_part(record.exampleFix, "//"))
        exe = tmp_path / record.slug
        built = subprocess.run(
            ["rustc", "--edition", "2021", "-o", str(exe), str(source)], capture_output=True, text=True
        )
        if built.returncode != 0:
            failures.append(f"{record.slug}: {built.stderr[-500:]}")
            continue
        ran = subprocess.run([str(exe)], capture_output=True, text=True, timeout=30)
        if ran.returncode != 0:
            failures.append(f"{record.slug}: exit {ran.returncode}: {ran.stderr[-300:]}")
    assert failures == []
