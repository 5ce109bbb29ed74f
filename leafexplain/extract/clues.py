"""The words without which an extractor finds nothing: the registry imports an extractor only for a text holding one.

Each extractor's own first test is on these words too (one list, so the registry's test and the extractor's
can never disagree). A Python traceback imports no Rust extractor, a cargo log no debugger popup's: each
module left out saves its import (0.1 to 0.3 ms each, seven of them on most inputs).
"""

from __future__ import annotations

# extract/rust.py: a panic's header, an overflow, an allocation failure, main's `Error: `.
RUST_PANIC = ("panicked at", "overflowed", "allocation", "Error: ")
# cargo's progress lines (`   Compiling foo v0.1.0`, `    Finished ...`, `     Running ...`): a verb, then its subject.
CARGO_VERBS = frozenset(
    (
        "Compiling",
        "Checking",
        "Finished",
        "Running",
        "Doc-tests",
        "Downloaded",
        "Downloading",
        "Updating",
        "Fresh",
        "Blocking",
        "Documenting",
        "Locking",
        "Adding",
        "Installing",
        "Installed",
        "Packaging",
        "Packaged",
        "Verifying",
        "Uploading",
        "Fetching",
        "Removing",
        "Replacing",
        "Unpacking",
        "Building",
        "Scraping",
    )
)

# extract/rustc.py: every header and summary line of rustc's holds one of these (`Some errors have ...` holds `error`).
RUSTC_WORDS = ("error", "warning", "For more information")

# extract/rust_reports.py: anyhow/eyre's chain, color-eyre's panic hook, human-panic's report.
CAUSED_BY = "Caused by:"
HUMAN_PANIC_OPENINGS = ("Well, this is embarrassing.", "had a problem and crashed. To help us diagnose the problem")
REPORT_ANCHORS = (CAUSED_BY, "Error:", "panicked (crashed)", *HUMAN_PANIC_OPENINGS)

# extract/debugger.py: VS Code's `Exception has occurred: {0}` in its display languages.
DEBUGGER_HEADERS = (
    "Exception has occurred: ",
    "Se produjo una excepción: ",
    "Une exception s'est produite : ",
    "Ausnahme aufgetreten: ",
    "Si è verificata un'eccezione: ",
    "Ocorreu uma exceção: ",
    "Возникло исключение: ",
    "Wystąpił wyjątek: ",
    "Došlo k výjimce: ",
    "Özel durum oluştu: ",
    "发生异常: ",
    "發生例外狀況: ",
    "例外が発生しました: ",
    "예외가 발생했습니다. ",
)

# extract/jupyter.py: IPython's traceback header (`----> Traceback (most recent call last)` in its colours).
JUPYTER = ("raceback (most",)

# extract/fatal.py: the words any fatal end needs.
TERMINATE = "terminate called "
FAULTHANDLER = "Fatal Python error: "
FATAL = (TERMINATE, FAULTHANDLER, "fatal runtime error: ", " aborting.", "(core dumped)", "Killed", "Aborted")
FATAL += ("Segmentation fault", "Bus error", "Illegal instruction", "Floating point exception", "(signal: ")
FATAL += ("Abort trap",)
FATAL += ("zsh: ", "segmentation fault", "killed", "abort")  # zsh's words, and its job line's

# extract/status.py: absl::StatusCode's names but OK, each an error, followed by its message.
STATUS_CODES = (
    "CANCELLED",
    "UNKNOWN",
    "INVALID_ARGUMENT",
    "DEADLINE_EXCEEDED",
    "NOT_FOUND",
    "ALREADY_EXISTS",
    "PERMISSION_DENIED",
    "RESOURCE_EXHAUSTED",
    "FAILED_PRECONDITION",
    "ABORTED",
    "OUT_OF_RANGE",
    "UNIMPLEMENTED",
    "INTERNAL",
    "UNAVAILABLE",
    "DATA_LOSS",
    "UNAUTHENTICATED",
)
STATUS = tuple(f"{code}: " for code in STATUS_CODES)

# extract/rustc_json.py: a diagnostic of rustc's as JSON (its own `--error-format=json`, cargo's
# `--message-format=json`), whole or cut short after its message.
RUSTC_JSON = ('"$message_type":"diagnostic"', '"reason":"compiler-message"', '{"message":"')

# extract/prose.py: an exception's class and its colon (ASCII or full-width), or a class alone at a line's end.
# And an OSError's text without its class: `[Errno 104] ...`, Windows' `[WinError 5] ...` (`[winerror 2]` too).
PROSE = tuple(f"{word}{mark}" for word in ("Error", "Exception") for mark in (":", "：", "\n"))
# An OSError's repr: `ConnectionRefusedError(111, 'Connection refused')`.
PROSE += ("[Errno ", "[WinError ", "[winerror ", "Error(")
