"""Installed from a wheel into a fresh virtual environment, run from elsewhere: records are found."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.conftest import ROOT, SEED_ID, clean_env


def test_wheel_in_fresh_venv_finds_bundled_records_and_example(tmp_path: Path) -> None:
    dist = tmp_path / "dist"
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(dist), str(ROOT)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert built.returncode == 0, built.stderr[-2000:]
    [wheel] = dist.glob("leafexplain-*.whl")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    pip = subprocess.run(
        [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", str(wheel)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert pip.returncode == 0, pip.stderr[-2000:]
    exe = venv / "bin" / "leafexplain"
    env = clean_env(tmp_path)
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    demo = subprocess.run(
        [str(exe), "demo", "--format", "json"], cwd=outside, env=env, capture_output=True, text=True, timeout=60
    )
    assert demo.returncode == 0, demo.stderr
    assert json.loads(demo.stdout)["events"][0]["matches"][0]["id"] == SEED_ID
    listed = subprocess.run(
        [str(exe), "list", "--format", "json"], cwd=outside, env=env, capture_output=True, text=True, timeout=60
    )
    assert len(json.loads(listed.stdout)["records"]) == len(list((ROOT / "records").rglob("*.json")))
    module = subprocess.run(
        [str(venv / "bin" / "python"), "-m", "leafexplain", "--version"], cwd=outside, capture_output=True, text=True
    )
    assert module.returncode == 0 and module.stdout.startswith("leafexplain ")
