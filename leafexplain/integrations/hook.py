"""The excepthook: uncaught Python exceptions explained where they happen, the usual traceback first.

`import leafexplain.hook` installs it (so does `leafexplain.install()`); it chains
`sys.excepthook` and `threading.excepthook`. The previous hook prints the traceback untouched;
the explanation follows on stderr, in plain text, when a record explains the error. Nothing
raised inside leafexplain ever escapes the hook: at worst the traceback is all that is printed.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
from types import TracebackType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from leafexplain.models import Report

MARK = "_leafexplain_hook"  # set on our hooks, so that installing twice chains only once
_records: Any = None  # the records, loaded at the first uncaught exception a record may explain


def live_report(exc_type: type[BaseException], exc_value: BaseException | None, exc_tb: TracebackType | None) -> Report:
    """One exception (its causes included) explained from the traceback Python prints, the records loaded at
    the first call and kept (the IPython extension asks here too)."""
    from leafexplain import session

    global _records
    if _records is None:
        _records = session.RecordsOnce()
    return session.explain_request(
        session.Request(session.LiveException(exc_type, exc_value, exc_tb), records=_records)
    )


def explanation(exc_type: type[BaseException], exc_value: BaseException | None, exc_tb: TracebackType | None) -> str:
    """The plain-text explanation of one exception (its causes included), or "" when no record has it."""
    from leafexplain import render
    from leafexplain.env import stream_columns

    report = live_report(exc_type, exc_value, exc_tb).explained_only()
    if not report.findings:
        return ""
    return render.to_text(report, render.Style("plain", width=stream_columns(sys.stderr, os.environ), full_hint=False))


def _explain_quietly(
    exc_type: type[BaseException] | None, exc_value: BaseException | None, exc_tb: TracebackType | None
) -> None:
    try:
        if exc_type is None or issubclass(exc_type, (KeyboardInterrupt, SystemExit)):
            return  # the user stopped the program: nothing to explain, and no time to spend
        text = explanation(exc_type, exc_value, exc_tb)
        if text and sys.stderr is not None:
            sys.stderr.write("\n" + text)
            sys.stderr.flush()
    except BaseException:  # a failing explanation leaves the traceback as the whole story
        pass


def _chain_sys(previous: Any) -> Any:
    def excepthook(exc_type: type[BaseException], exc_value: BaseException, exc_tb: TracebackType | None) -> None:
        try:
            previous(exc_type, exc_value, exc_tb)
        except BaseException:
            with contextlib.suppress(BaseException):
                sys.__excepthook__(exc_type, exc_value, exc_tb)
        _explain_quietly(exc_type, exc_value, exc_tb)

    setattr(excepthook, MARK, True)
    return excepthook


def _chain_threading(previous: Any) -> Any:
    def excepthook(args: threading.ExceptHookArgs) -> None:
        try:
            previous(args)
        except BaseException:
            with contextlib.suppress(BaseException):
                threading.__excepthook__(args)
        _explain_quietly(args.exc_type, args.exc_value, args.exc_traceback)

    setattr(excepthook, MARK, True)
    return excepthook


def install() -> None:
    """Chain the hooks (once: installing again changes nothing)."""
    if not getattr(sys.excepthook, MARK, False):
        sys.excepthook = _chain_sys(sys.excepthook)
    if not getattr(threading.excepthook, MARK, False):
        threading.excepthook = _chain_threading(threading.excepthook)
