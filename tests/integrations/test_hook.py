"""The excepthook: a script's own traceback first, untouched, then the explanation; never a failure of its own."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

from tests.conftest import Isolated

EXPLAINED = "  why:"
JSON_RECORD = 'the Python record "Expecting value: line … column … (char …)"'


def run_script(tmp: Path, body: str, *, install: str = "") -> subprocess.CompletedProcess[str]:
    """The script as written, with `install` (how the hook is put in place) as its first lines."""
    script = tmp / "script.py"
    script.write_text(textwrap.dedent(install) + textwrap.dedent(body))
    return subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, env=Isolated(tmp).environ, cwd=tmp, timeout=60
    )


# The same number of lines either way, so that the tracebacks compare equal.
WITH_IMPORT = "import leafexplain.hook  # noqa: F401\n"
WITHOUT = "pass\n"

JSON_ERROR = """
import json
print("loading config")
json.loads("")
"""


def test_known_error_prints_the_traceback_untouched_then_the_explanation(tmp_path: Path) -> None:
    plain = run_script(tmp_path, JSON_ERROR, install=WITHOUT)
    hooked = run_script(tmp_path, JSON_ERROR, install=WITH_IMPORT)
    assert plain.returncode == hooked.returncode == 1
    assert hooked.stdout == plain.stdout == "loading config\n"
    assert plain.stderr.startswith("Traceback (most recent call last):")
    assert hooked.stderr.startswith(plain.stderr)
    explanation = hooked.stderr[len(plain.stderr) :]
    assert f"matched: {JSON_RECORD}, exact wording" in explanation
    assert EXPLAINED in explanation and "  fix:     1. " in explanation
    assert "https://github.com/python/cpython/blob/" in explanation
    assert "\x1b" not in explanation, "plain text"
    # No command line was typed, so nothing to add --full to: the show command is the way to more.
    assert "leafexplain show " in explanation and "--full" not in explanation


def test_install_function_and_installing_twice(tmp_path: Path) -> None:
    twice = "import leafexplain\nleafexplain.install(); leafexplain.install()\nimport leafexplain.hook\n"
    hooked = run_script(tmp_path, JSON_ERROR, install=twice)
    assert hooked.stderr.count(EXPLAINED) == 1


def test_unknown_error_prints_just_the_traceback(tmp_path: Path) -> None:
    # A class of the script's own: no record explains it, not even one for its class.
    body = 'class QuotaExceeded(Exception):\n    pass\n\n\nraise QuotaExceeded("tenant quota exceeded: 1001 > 1000")\n'
    plain = run_script(tmp_path, body, install=WITHOUT)
    hooked = run_script(tmp_path, body, install=WITH_IMPORT)
    assert hooked.stderr == plain.stderr
    assert hooked.returncode == plain.returncode == 1


def test_internal_failure_still_prints_the_traceback(tmp_path: Path) -> None:
    broken = "import leafexplain.hook, leafexplain.session as s; s.load_matcher = lambda *a, **k: 1 / 0\n"
    plain = run_script(tmp_path, JSON_ERROR, install=WITHOUT)
    hooked = run_script(tmp_path, JSON_ERROR, install=broken)
    assert hooked.stderr == plain.stderr
    assert hooked.returncode == 1


def test_a_previous_hook_runs_first_and_keyboard_interrupt_is_left_alone(tmp_path: Path) -> None:
    custom = (
        "import sys\n"
        "sys.excepthook = lambda t, v, tb: print('custom hook:', t.__name__, file=sys.stderr)\n"
        "import leafexplain.hook\n"
    )
    hooked = run_script(tmp_path, JSON_ERROR, install=custom)
    assert hooked.stderr.startswith("custom hook: JSONDecodeError\n")
    assert JSON_RECORD in hooked.stderr
    interrupted = run_script(tmp_path, "raise KeyboardInterrupt\n", install=WITH_IMPORT)
    assert interrupted.stderr.rstrip().endswith("KeyboardInterrupt")


def test_thread_exceptions_are_explained_too(tmp_path: Path) -> None:
    body = """
    import json, threading
    worker = threading.Thread(target=json.loads, args=("",), name="loader")
    worker.start(); worker.join()
    print("main thread carries on")
    """
    hooked = run_script(tmp_path, body, install=WITH_IMPORT)
    assert hooked.returncode == 0 and hooked.stdout == "main thread carries on\n"
    assert hooked.stderr.startswith("Exception in thread loader:\nTraceback (most recent call last):")
    assert hooked.stderr.index("JSONDecodeError: Expecting value") < hooked.stderr.index(JSON_RECORD)


def test_importing_leafexplain_stays_cheap() -> None:
    """`import leafexplain` (and the hook, from sitecustomize) must not load the explain machinery."""
    code = (
        "import sys, leafexplain; before = set(sys.modules)\n"
        "import leafexplain.hook; after = set(sys.modules)\n"
        "print(sorted(m for m in before if m.startswith(('leafexplain', 'rich', 'typer'))))\n"
        "print(sorted(m for m in after - before if m.startswith(('leafexplain', 'rich', 'typer', 'rapidfuzz'))))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.splitlines() == [
        "['leafexplain', 'leafexplain.version']",
        "['leafexplain.hook', 'leafexplain.integrations', 'leafexplain.integrations.hook']",
    ]
