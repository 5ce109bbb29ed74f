"""Files shipped with leafexplain: inside the package when installed, beside it in a checkout."""

from __future__ import annotations

import os

# Paths here are strings: this is on every run's way, and pathlib costs a few milliseconds to import.
_HERE = os.path.dirname(os.path.realpath(__file__))


def bundled_dir(name: str) -> str:
    """`records` or `examples`: the wheel carries them as `_records`/`_examples` in the package."""
    installed = os.path.join(_HERE, f"_{name}")
    return installed if os.path.isdir(installed) else os.path.join(os.path.dirname(_HERE), name)


def installed_dir(name: str) -> str | None:
    """`_records` etc. in an installed package (a wheel's files, replaced whole by each install), else None."""
    installed = os.path.join(_HERE, f"_{name}")
    return installed if os.path.isdir(installed) else None


def example_path() -> str:
    return os.path.join(bundled_dir("examples"), "burn-panic.txt")
