"""Files shipped with leafexplain: inside the package when installed, beside it in a checkout."""

from __future__ import annotations

from pathlib import Path

_HERE = Path(__file__).resolve().parent


def bundled_dir(name: str) -> Path:
    """`records` or `examples`: the wheel carries them as `_records`/`_examples` in the package."""
    installed = _HERE / f"_{name}"
    return installed if installed.is_dir() else _HERE.parent / name


def example_path() -> Path:
    return bundled_dir("examples") / "burn-panic.txt"
