"""The IPython extension: `%load_ext leafexplain` explains every exception a cell raises, under IPython's own
traceback, and `%explain` explains the last one again in full.

Loaded by `%load_ext leafexplain` or a profile's `c.InteractiveShellApp.extensions = ["leafexplain"]`
(`leafexplain.load_ipython_extension` hands over to this module). In a notebook (any frontend of a
kernel) the explanation is a display with `text/html` (render/notebook.py: a small block in the
notebook's own colours) and `text/plain` (the plain format's default view), so that exported and
plain frontends show it too; in terminal IPython it is the default view, in colour when IPython
colours its tracebacks (its `colors` is not `nocolor`) and NO_COLOR is unset.

Why the `post_run_cell` event and not `set_custom_exc`: a custom exception handler replaces the one
handler IPython keeps (another extension's, or ours, would be lost) and takes over the traceback
(its `%xmode`, `%pdb` and the kernel's error message then depend on the handler calling
`showtraceback` as IPython would). After the cell, IPython has already shown its traceback, untouched,
and `result.error_in_exec` is the exception; what is displayed then is still the cell's output,
below the traceback.

Nothing here costs anything until a cell fails: the callback looks at one attribute, and the
records are loaded at the first error (the excepthook's `live_report`, which builds the report of
a live exception for both). Whatever fails inside leafexplain is one warning line on stderr; the
cell's own output is never touched.
"""

from __future__ import annotations

import contextlib
import os
import sys
from types import TracebackType
from typing import Any

MAGIC = "explain"
_loaded: dict[int, Any] = {}  # each shell's post_run_cell callback, by the shell's id, to unregister it


def load_ipython_extension(ip: Any) -> None:
    """Explain each failing cell after IPython's traceback, and add the `%explain` line magic."""
    if id(ip) in _loaded:
        return

    def after_cell(result: Any) -> None:
        error = result.error_in_exec or result.error_before_exec
        if error is not None and not isinstance(error, KeyboardInterrupt | SystemExit):
            _explain_quietly(ip, error, full=False)

    def explain(line: str = "") -> None:
        """Explain the last exception again, in full (the long view of `leafexplain --full`)."""
        error = getattr(sys, "last_exc", None) or getattr(sys, "last_value", None)
        if error is None:
            sys.stderr.write("leafexplain: no exception to explain yet\n")
            return
        _explain_quietly(ip, error, full=True)

    ip.events.register("post_run_cell", after_cell)
    ip.register_magic_function(explain, "line", MAGIC)
    _loaded[id(ip)] = after_cell


def unload_ipython_extension(ip: Any) -> None:
    """Stop explaining (`%unload_ext leafexplain`, and `%reload_ext` before it loads again)."""
    after_cell = _loaded.pop(id(ip), None)
    if after_cell is not None:
        ip.events.unregister("post_run_cell", after_cell)
        ip.magics_manager.magics["line"].pop(MAGIC, None)


def _cell_traceback(error: BaseException) -> TracebackType | None:
    """The traceback from the cell's code on: IPython's own frames (`run_code`'s `exec`) left out, as its
    traceback leaves them out."""
    tb = error.__traceback__
    while tb is not None and str(tb.tb_frame.f_globals.get("__name__", "")).startswith("IPython."):
        tb = tb.tb_next
    return tb


def _explain_quietly(ip: Any, error: BaseException, *, full: bool) -> None:
    try:
        _explain(ip, error, full=full)
    except BaseException as exc:  # explaining is a help: it never breaks the cell's output, nor stops the shell
        with contextlib.suppress(BaseException):
            sys.stderr.write(f"leafexplain: could not explain this error ({type(exc).__name__})\n")


def _explain(ip: Any, error: BaseException, *, full: bool) -> None:
    from leafexplain import render
    from leafexplain.env import Environment, stream_columns
    from leafexplain.integrations.hook import live_report

    report = live_report(type(error), error, _cell_traceback(error))
    if not full:
        report = report.explained_only()  # what no record explains is left to the traceback
    if not report.findings:
        if full:
            sys.stderr.write("leafexplain: found no error to explain in the last traceback\n")
        return
    if getattr(ip, "kernel", None) is not None:  # a notebook, or another frontend of a kernel
        from IPython.display import display

        from leafexplain.render.notebook import notebook_html

        style = render.Style("plain", "never", full=full, full_hint=False)
        shown = {"text/html": notebook_html(report, style), "text/plain": render.to_text(report, style)}
        display(shown, raw=True)
        return
    colour = str(getattr(ip, "colors", "nocolor")).lower() != "nocolor" and not Environment(environ=os.environ).no_color
    width = stream_columns(sys.stdout, os.environ)
    style = render.Style(
        "terminal" if colour else "plain", "always" if colour else "never", width, full, full_hint=False
    )
    sys.stdout.write("\n" + render.to_text(report, style))  # a blank line after IPython's traceback
    sys.stdout.flush()
