"""Installed from a wheel into a fresh virtual environment, run from elsewhere: records are found."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

from tests.conftest import RECORDS, SEED_ID, Isolated


def test_wheel_in_fresh_venv_finds_bundled_records_and_example(tmp_path: Path, wheel: Path) -> None:
    venv = tmp_path / "venv"
    # This Python's pip installs into the new environment: a pip of its own (ensurepip) takes seconds to set up.
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=300)
    pip = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), "install", "--quiet", str(wheel)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert pip.returncode == 0, pip.stderr[-2000:]
    exe = venv / "bin" / "leafexplain"
    env = Isolated(tmp_path).environ
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    demo = subprocess.run(
        [str(exe), "demo", "--format", "json"], cwd=outside, env=env, capture_output=True, text=True, timeout=60
    )
    assert demo.returncode == 0, demo.stderr
    assert json.loads(demo.stdout)["events"][0]["matches"][0]["id"] == SEED_ID
    # The installed records are sealed: their folder stands for their files, so a run stats one folder, not
    # each file. A file's time changed in place (no install does that) leaves the index as it is.
    [index] = (tmp_path / "cache" / "leafexplain" / "index").glob("*.marshal")
    built = index.stat().st_mtime_ns
    [installed] = venv.glob("lib/python*/site-packages/leafexplain/_records")
    os.utime(next(installed.rglob("*.json")), ns=(1, 1))
    listed = subprocess.run(
        [str(exe), "list", "--format", "json"], cwd=outside, env=env, capture_output=True, text=True, timeout=60
    )
    assert len(json.loads(listed.stdout)["records"]) == len(list(RECORDS.rglob("*.json")))
    assert index.stat().st_mtime_ns == built, "the sealed records' index was reused"
    module = subprocess.run(
        [str(venv / "bin" / "python"), "-m", "leafexplain", "--version"], cwd=outside, capture_output=True, text=True
    )
    assert module.returncode == 0 and module.stdout.startswith("leafexplain ")


def test_the_wheel_installs_the_man_page(wheel: Path) -> None:
    """`share/man/man1/leafexplain.1` under the install's prefix (hatchling's shared-data: the wheel's
    `*.data/data/` folder), with its EXIT STATUS; and the cargo subcommand's console script."""
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        [page] = [name for name in names if name.endswith(".data/data/share/man/man1/leafexplain.1")]
        assert ".SH EXIT STATUS" in archive.read(page).decode("utf-8")
        [entry_points] = [name for name in names if name.endswith(".dist-info/entry_points.txt")]
        assert "cargo-leafexplain = leafexplain.cli.cargo:console" in archive.read(entry_points).decode()
