"""Hostile text for the robustness tests, and the check that output cannot act on a terminal."""

from __future__ import annotations

import io
import re
import subprocess
import sys
from pathlib import Path

from leafexplain.env import Environment
from leafexplain.render.formats.rich_console import make_console
from leafexplain.render.formats.terminal_rich import print_views
from tests.conftest import leafexplain_command

ESCAPES = [
    "\x1b[2J\x1b[H",  # clear the screen, cursor home
    "\x1b]52;c;ZWNobyBwd25lZA==\x07",  # OSC 52: set the clipboard
    "\x1b]8;;javascript:alert(1)\x1b\\click\x1b]8;;\x1b\\",  # OSC 8: a fake hyperlink
    "\x1bP1$r0m\x1b\\",  # DCS
    "\x1b",  # a bare ESC
    "\x9b31m",  # C1 CSI
    "\x90q\x9c",  # C1 DCS ... ST
    "\x1b]0;title",  # an OSC never closed
    "safe\rFAKE",  # a carriage-return overwrite
    "\u202eevil\u202c",  # bidi override
    "\u2066x\u2069\u200f",  # bidi isolate, RLM
    "\x00\x07\x08\x7f",  # NUL, BEL, BS, DEL
    "\ud800",  # a lone surrogate (JSON can carry one)
    "[bold red]markup[/bold red] [link=https://evil.example]x[/link]",  # rich markup
]
HOSTILE = "".join(ESCAPES)
VALID_HOSTILE = "".join(e for e in ESCAPES if e != "\ud800")  # what a record's JSON may carry and pass validation

# A raw control character: C0 but tab and newline, DEL, C1; and the bidi controls.
RAW_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
SGR = re.compile(r"\x1b\[[0-9;]*m")
OSC8 = re.compile(r"\x1b\]8;([^;\x1b\x07]*);([^\x1b\x07]*)\x1b\\")


def assert_terminal_safe(output: str) -> None:
    """Nothing in `output` can act on a terminal but rich's own colours and https hyperlinks."""
    for link in OSC8.finditer(output):
        assert link.group(2) == "" or link.group(2).startswith("https://"), link.group()
        assert "@" not in link.group(2)
    leftover = OSC8.sub("", SGR.sub("", output))
    bad = RAW_CONTROL.search(leftover)
    assert bad is None, (
        f"raw control {bad.group()!r} at {bad.start()}: {leftover[max(bad.start() - 40, 0) : bad.end() + 40]!r}"
    )


MEASURE = """
import resource, subprocess, sys
with open(sys.argv[1], "rb") as stdin:
    done = subprocess.run(sys.argv[2:], stdin=stdin, capture_output=True)
sys.stdout.write(f"{done.returncode} {resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss}\\n")
sys.stdout.buffer.write(done.stdout)
sys.stderr.buffer.write(done.stderr)
"""
PEAK_LIMIT_KB = 160 * 1024  # about 30 MB here; generous for other machines, far below the inputs


def run_measured(path: Path, env: dict[str, str], *args: str) -> tuple[int, int, str, str]:
    done = subprocess.run(
        [sys.executable, "-c", MEASURE, str(path), *leafexplain_command(), *args],
        capture_output=True,
        env=env,
        timeout=300,
    )
    head, _, stdout = done.stdout.decode().partition("\n")
    code, peak = (int(v) for v in head.split())
    return code, peak, stdout, done.stderr.decode()


def render_rich(views: list, color: bool) -> str:
    """Views as the rich renderer writes them, with colour (and hyperlinks) or without."""
    buffer = io.StringIO()
    print_views(make_console(Environment(stdout=buffer, width=80), "always" if color else "never", None), views)
    return buffer.getvalue()
