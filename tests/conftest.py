"""Shared helpers: run the installed `leafexplain` as a user would, in an isolated environment."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "tests" / "corpus"
OUTPUTS = CORPUS / "outputs"
RECORDS = ROOT / "records"
SEED_SLUG = "can-t-convert-a-non-leaf-tensor-into-a-tracked-ten"
SEED_ID = "745587749477e02c"

# The corpus holds programs and outputs, not tests of ours.
collect_ignore_glob = ["corpus/*"]


def leafexplain_command() -> list[str]:
    exe = shutil.which("leafexplain")
    return [exe] if exe else [sys.executable, "-m", "leafexplain"]


def clean_env(tmp: Path, **extra: str) -> dict[str, str]:
    """The user's own records, colour and width settings must not leak into a test."""
    env = {
        k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "COLUMNS", "LEAFEXPLAIN_RECORDS", "FORCE_COLOR")
    }
    env["XDG_DATA_HOME"] = str(tmp / "data")
    env["XDG_CACHE_HOME"] = str(tmp / "cache")
    env.update(extra)
    return env


def run_cli(
    *args: str,
    input: str | bytes | None = None,
    env: dict[str, str] | None = None,
    cwd: Path | None = None,
    timeout: int = 60,
) -> subprocess.CompletedProcess[str]:
    data = input.encode() if isinstance(input, str) else input
    done = subprocess.run(
        [*leafexplain_command(), *args],
        input=data if data is not None else b"",
        capture_output=True,
        env=env,
        cwd=cwd,
        timeout=timeout,
    )
    return subprocess.CompletedProcess(
        done.args, done.returncode, done.stdout.decode("utf-8", "replace"), done.stderr.decode("utf-8", "replace")
    )


@pytest.fixture
def cli(tmp_path: Path):
    env = clean_env(tmp_path)

    def call(
        *args: str, input: str | bytes | None = None, extra_env: dict[str, str] | None = None, cwd: Path | None = None
    ):
        return run_cli(*args, input=input, env={**env, **(extra_env or {})}, cwd=cwd)

    return call
