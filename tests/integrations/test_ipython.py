"""The IPython extension: a notebook run by a real kernel, terminal IPython in this process and as a program."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import Isolated

pytest.importorskip("IPython", reason="the IPython extension's tests need IPython (the `jupyter` extra)")

KERNEL = "leafexplain-test"
JSON_LINK = "https://github.com/python/cpython/blob/"
JSON_MATCH = 'the Python record "Expecting value: line … column … (char …)"'
JSON_ERROR = 'import json\njson.loads("")'
WARNING = "leafexplain: could not explain this error (ZeroDivisionError)"
# Our own failure, where a failing cell would ask for its explanation.
BREAK_IT = "import leafexplain.integrations.hook as hook\nhook.live_report = lambda *args: 1 / 0"


# --- a notebook, run by a real kernel --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def notebook(tmp_path_factory: pytest.TempPathFactory) -> list[list[dict[str, Any]]]:
    """Each cell's outputs, the notebook run from the first cell to the last by an IPython kernel of this very
    Python (a kernel spec of its own naming `sys.executable`: no other `python3` kernel installed here is
    used), as a user of their own."""
    nbformat = pytest.importorskip("nbformat", reason="the notebook test needs nbformat (the `jupyter` extra)")
    nbclient = pytest.importorskip("nbclient", reason="the notebook test needs nbclient (the `jupyter` extra)")
    pytest.importorskip("ipykernel", reason="the notebook test needs ipykernel (the `jupyter` extra)")
    from jupyter_client.kernelspec import KernelSpecManager
    from jupyter_client.manager import KernelManager

    tmp = tmp_path_factory.mktemp("notebook")
    spec = tmp / "kernels" / KERNEL
    spec.mkdir(parents=True)
    argv = [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"]
    (spec / "kernel.json").write_text(json.dumps({"argv": argv, "display_name": KERNEL, "language": "python"}))
    kernel = KernelManager(kernel_name=KERNEL, kernel_spec_manager=KernelSpecManager(kernel_dirs=[str(spec.parent)]))
    cells = [
        "%load_ext leafexplain",
        "print('fine')",
        JSON_ERROR,
        "%explain",
        'class QuotaError(Exception): pass\nraise QuotaError("tenant quota exceeded for zebra-ops: 1001 > 1000")',
        BREAK_IT,
        JSON_ERROR,
        "print('still fine')",
        "import sys; print(sys.executable)",
    ]
    book = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source) for source in cells])
    client = nbclient.NotebookClient(book, km=kernel, timeout=180, allow_errors=True)
    client.execute(cwd=str(tmp), env=Isolated(tmp).environ)
    return [cell["outputs"] for cell in book.cells]


def _displays(outputs: list[dict[str, Any]]) -> list[dict[str, str]]:
    return [output["data"] for output in outputs if output["output_type"] == "display_data"]


def _stderr(outputs: list[dict[str, Any]]) -> str:
    return "".join(o["text"] for o in outputs if o["output_type"] == "stream" and o["name"] == "stderr")


def test_a_failing_cell_shows_its_traceback_then_the_explanation(notebook: list[list[dict[str, Any]]]) -> None:
    outputs = notebook[2]
    kinds = [output["output_type"] for output in outputs]
    assert kinds == ["error", "display_data"], "IPython's own traceback first, untouched, then ours"
    assert outputs[0]["ename"] == "JSONDecodeError"
    (shown,) = _displays(outputs)
    html, plain = shown["text/html"], shown["text/plain"]
    assert html.startswith('<div class="leafexplain"') and JSON_LINK in html
    assert "What it means" in html and "How to fix it" in html
    assert "<script" not in html and "<style" not in html and "<link" not in html, "nothing external"
    assert "&quot;Expecting value: line … column … (char …)&quot;" in html, "the record's words, escaped"
    assert f"matched: {JSON_MATCH}, exact wording" in plain, "the plain default view, for exported notebooks"
    assert JSON_LINK in plain and "\x1b" not in plain
    assert [o.get("text") for o in notebook[8]] == [sys.executable + "\n"], "the kernel is this Python"
    assert notebook[0] == [] and [o.get("text") for o in notebook[1]] == ["fine\n"], "no cost, no output, until then"


def test_explain_magic_shows_the_last_exception_in_full(notebook: list[list[dict[str, Any]]]) -> None:
    (shown,) = _displays(notebook[3])
    assert "Prevention tips" in shown["text/plain"] and "About this record" in shown["text/plain"], "the long view"
    assert "Prevention tips" in shown["text/html"] and JSON_LINK in shown["text/html"]


def test_an_error_no_record_explains_is_left_to_the_traceback(notebook: list[list[dict[str, Any]]]) -> None:
    assert [o["output_type"] for o in notebook[4]] == ["error"]


def test_a_failure_of_ours_is_one_line_and_the_cell_keeps_its_output(notebook: list[list[dict[str, Any]]]) -> None:
    outputs = notebook[6]
    assert [o["output_type"] for o in outputs] == ["error", "stream"]
    assert outputs[0]["ename"] == "JSONDecodeError"
    assert _stderr(outputs) == WARNING + "\n"
    assert [o.get("text") for o in notebook[7]] == ["still fine\n"], "the kernel goes on"


# --- terminal IPython ----------------------------------------------------------------------------------------


@pytest.fixture
def shell(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    """An interactive shell in this process with the extension loaded, as a user of its own (no colour)."""
    from IPython.core.interactiveshell import InteractiveShell

    import leafexplain.integrations.hook as hook

    for name, value in Isolated(tmp_path).environ.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setattr(hook, "_records", None)  # loaded again, from this user's folders
    ip = InteractiveShell.instance(colors="nocolor")
    ip.run_line_magic("load_ext", "leafexplain")
    yield ip
    ip.run_line_magic("unload_ext", "leafexplain")
    InteractiveShell.clear_instance()


def test_terminal_ipython_shows_the_default_view_after_the_traceback(
    shell: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    shell.run_cell(JSON_ERROR)
    out = capsys.readouterr().out
    traceback_at, explained_at = out.index("JSONDecodeError: Expecting value"), out.index("  why:")
    assert traceback_at < explained_at, "IPython's traceback first"
    assert f"matched: {JSON_MATCH}, exact wording" in out and JSON_LINK in out
    assert "\x1b" not in out, "no colour: IPython's colours are off"
    shell.run_line_magic("explain", "")
    assert "Prevention tips" in capsys.readouterr().out


def test_terminal_ipython_colours_the_view_when_ipython_colours(
    shell: Any, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    shell.colors = "linux"
    shell.run_cell(JSON_ERROR)
    explained = capsys.readouterr().out.split("Expecting value: line 1 column 1 (char 0)", 1)[1]
    assert "\x1b[" in explained and "matched: " in explained


def test_unloading_stops_explaining(shell: Any, capsys: pytest.CaptureFixture[str]) -> None:
    shell.run_line_magic("unload_ext", "leafexplain")
    shell.run_cell(JSON_ERROR)
    assert "why:" not in capsys.readouterr().out
    shell.run_line_magic("load_ext", "leafexplain")


def test_loading_costs_nothing_until_a_cell_fails(tmp_path: Path) -> None:
    """`%load_ext` imports neither the pipeline nor the records; a cell that succeeds loads nothing either."""
    probe = (
        "import sys, time\n"
        "from IPython.core.interactiveshell import InteractiveShell\n"
        "ip = InteractiveShell.instance()\n"
        "start = time.perf_counter()\n"
        "ip.run_line_magic('load_ext', 'leafexplain')\n"
        "took = time.perf_counter() - start\n"
        "ip.run_cell('x = 1 + 1')\n"
        "print(sorted(m for m in sys.modules if m.startswith('leafexplain.') and 'session' in m), took)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, env=Isolated(tmp_path).environ, timeout=60
    )
    loaded, took = done.stdout.split()[-2:]
    assert loaded == "[]", done.stdout
    assert float(took) < 0.05, f"%load_ext took {took} s"


def test_a_profile_loads_the_extension(tmp_path: Path) -> None:
    """`c.InteractiveShellApp.extensions = ["leafexplain"]` in a profile: terminal IPython, a real process."""
    profile = tmp_path / "profile"
    profile.mkdir()
    (profile / "ipython_config.py").write_text('c.InteractiveShellApp.extensions = ["leafexplain"]\n')
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "IPython", f"--profile-dir={profile}", "--colors=nocolor", "-c", JSON_ERROR],
        capture_output=True,
        text=True,
        env=Isolated(tmp_path).environ,
        timeout=120,
    )
    assert time.monotonic() - started < 120
    assert "JSONDecodeError" in done.stdout
    assert f"matched: {JSON_MATCH}, exact wording" in done.stdout, done.stdout + done.stderr
