"""Find the fatal ends of a run: C++ `terminate called`, Python's faulthandler dump, Rust's aborts, a shell's signal.

A run that ends this way prints no panic and no traceback, yet it failed: each end is an event, so that a
failing run is never said to hold no error.

- C++'s `terminate called after throwing an instance of 'T'` and its `  what():  message` (torch and other
  native extensions print it): the type and the message, which records are matched against as any message
  (match/fuzzy.py takes a `what():` cut short by a paste); `terminate called without an active exception`.
- Python's faulthandler (`Fatal Python error: Segmentation fault`, then `Current thread 0x… (most recent call
  first):` and its `  File "…", line N in f` frames; 3.12+ names the thread, `Current thread 0x… [name]`):
  one event, its user frame the innermost of that stack that is not a library's. Right after a `terminate`,
  its `Aborted` dump gives that event its frames instead.
- Rust's aborts without a panic header (`fatal runtime error: …`, `thread caused non-unwinding panic.
  aborting.`, `thread panicked while processing panic. aborting.`): an event, unless they end a panic or an
  abort read just before (`fatal runtime error: stack overflow` after `has overflowed its stack`).
- A shell's words for the signal that ended its child (`Segmentation fault (core dumped)`, `Killed`, alone on
  their line; bash's `line N: PID Aborted  cmd`, zsh's `zsh: killed  cmd` and `[1]  PID abort  cmd`, cargo's
  `(signal: 11, SIGSEGV: invalid memory reference)`): one event naming the signal, unless an event read just
  before says it already (a `terminate` or a faulthandler dump ends in the SIGABRT the shell then reports).
  Only in the shell's own line shapes: a sentence about a segfault is not one.
"""

from __future__ import annotations

from leafexplain.extract.clues import FATAL as _CLUES
from leafexplain.extract.clues import FAULTHANDLER, TERMINATE
from leafexplain.extract.common import prefix_stripper, user_frame
from leafexplain.extract.rust import cargo_status
from leafexplain.models import ErrorEvent, Frame
from leafexplain.regex import lazy_regex

TYPE_OPENING = "after throwing an instance of "
WHAT = "what():"
MAX_WHAT_LINES = 40  # a `what():` over several lines (torch's c10::Error and its `Exception raised from`)
MAX_DUMP_LINES = 400  # a faulthandler dump: every thread's stack, each at most 100 frames

# The shell's words for a signal, and the signal: bash and sh (`Segmentation fault`) and zsh (`segmentation fault`).
SIGNAL_WORDS = {
    "Segmentation fault": "SIGSEGV",
    "Killed": "SIGKILL",
    "Aborted": "SIGABRT",
    "Bus error": "SIGBUS",
    "Illegal instruction": "SIGILL",
    "Floating point exception": "SIGFPE",
    "Abort trap": "SIGABRT",  # macOS
    "segmentation fault": "SIGSEGV",
    "killed": "SIGKILL",
    "abort": "SIGABRT",
    "bus error": "SIGBUS",
    "illegal hardware instruction": "SIGILL",
    "floating point exception": "SIGFPE",
}
# faulthandler's name of a fatal signal: the shell's line that follows the dump says the same signal.
FAULTHANDLER_SIGNALS = {"Segmentation fault": "SIGSEGV", "Aborted": "SIGABRT", "Bus error": "SIGBUS"}
FAULTHANDLER_SIGNALS |= {"Floating point exception": "SIGFPE", "Illegal instruction": "SIGILL"}
_BASH_NAMES = "Segmentation fault|Killed|Aborted|Bus error|Illegal instruction|Floating point exception|Abort trap"
_ZSH_NAMES = "segmentation fault|killed|abort|bus error|illegal hardware instruction|floating point exception"
# Alone on its line (sh, or bash's foreground job; macOS adds the number: `Segmentation fault: 11`), or bash's
# `script: line N: PID Name  (core dumped) command`.
SHELL_SIGNAL = lazy_regex(
    rf"^(?P<job>(?:\S.*: )?line \d+: +\d+ +)?(?P<name>{_BASH_NAMES})(?::\ \d+)?(?P<core> +\(core dumped\))?"
    r"(?P<command>.*)$"
)
# zsh: `zsh: segmentation fault (core dumped)  ./a.out`, a job's `[1]    3950410 abort (core dumped)  ./prog`.
ZSH_SIGNAL = lazy_regex(
    rf"^(?:zsh: |\[\d+\] +(?:\+ |- )?\d+ )(?P<name>{_ZSH_NAMES})(?P<core> \(core dumped\))?(?: +(?P<command>\S.*))?$"
)
# cargo's `process didn't exit successfully: `target/debug/app` (signal: 11, SIGSEGV: invalid memory reference)`.
CARGO_SIGNAL = lazy_regex(
    r"process didn't exit successfully: .*\(signal: \d+, (?P<signal>SIG[A-Z]+): (?P<what>[^)]*)\)"
)
RUST_ABORTS = ("thread caused non-unwinding panic. aborting.", "thread panicked while processing panic. aborting.")
RUST_ABORTS += ("thread panicked while panicking. aborting.",)
THREAD_HEADER = lazy_regex(
    r"^(?P<current>Current thread|Thread) 0x[0-9a-fA-F]+(?: \[[^\]]*\])? \(most recent call first\):$"
)
DUMP_FRAME = lazy_regex(r'^ +File "(?P<file>[^"]+)", line (?P<line>\d+|\?\?\?) in (?P<function>.+?)\s*$')


def _may_hold_an_end(text: str) -> bool:
    return any(clue in text for clue in _CLUES)


def extract(lines: list[str], claimed: list[bool]) -> list[ErrorEvent]:
    if not _may_hold_an_end("\n".join(lines)):
        return []
    events: list[ErrorEvent] = []
    said: set[str] = set()  # signals an event read before says the run ended by: the shell's line repeats it
    i = 0
    while i < len(lines):
        line = lines[i]
        if claimed[i] or not line.strip():
            i += 1
            continue
        if TERMINATE in line:
            found = _terminate(lines, i, claimed)
            if found is not None:
                event, i = found
                events.append(event)
                said.add("SIGABRT")
                continue
        if FAULTHANDLER in line:
            found = _faulthandler(lines, i, claimed)
            if found is not None:
                (event, signal), end = found
                if _joins_terminate(events, lines, claimed, i):
                    events[-1] = events[-1]._replace(frames=event.frames, user_frame=event.user_frame)
                else:
                    events.append(event)
                said.add(signal)
                i = end
                continue
        stripped = line.strip()
        if stripped.startswith("fatal runtime error: ") or stripped in RUST_ABORTS:
            claimed[i] = True
            if not _ends_an_error(lines, claimed, i):  # not the end of a panic or an abort read just before
                events.append(ErrorEvent("rust", "abort", stripped, extractor="rust-fatal", line_number=i + 1))
            said.add("SIGABRT")
            i += 1
            continue
        signal = _shell_signal(line)
        if signal is not None:
            claimed[i] = True
            name, words = signal
            if name in said:
                said.discard(name)
            elif name == "SIGABRT" and _ends_an_error(lines, claimed, i):
                pass  # a panic with `panic = "abort"`, a traceback's C++ teardown: the abort is that error's end
            else:
                events.append(ErrorEvent("unknown", name, words, extractor="shell-signal", line_number=i + 1))
        i += 1
    return events


def _ends_an_error(lines: list[str], claimed: list[bool], i: int) -> bool:
    """The line before `i` was read as part of an error (not as cargo's progress: `Running target/debug/app`)."""
    j = i - 1
    while j >= 0 and not lines[j].strip():
        j -= 1
    return j >= 0 and claimed[j] and not cargo_status(lines[j])


def _terminate(lines: list[str], i: int, claimed: list[bool]) -> tuple[ErrorEvent, int] | None:
    """`terminate called after throwing an instance of 'T'` and its `what():`, or `terminate called without an
    active exception` (or `recursively`): the event and the line after it."""
    line = lines[i]
    at = line.find(TERMINATE)
    rest = line[at + len(TERMINATE) :].strip()
    strip = prefix_stripper(line[:at]) if line[:at].strip() else (lambda text: text)
    if not rest.startswith(TYPE_OPENING):
        if rest not in ("without an active exception", "recursively"):
            return None
        claimed[i] = True
        event = ErrorEvent("unknown", "terminate", f"terminate called {rest}", extractor="cpp-terminate")
        return event._replace(line_number=i + 1), i + 1
    error_type = rest[len(TYPE_OPENING) :].strip().strip("'\u2018\u2019`")
    message: list[str] = []
    end = i + 1
    what = strip(lines[end]) if end < len(lines) else None
    if what is not None and what.lstrip().startswith(WHAT):
        message.append(what.lstrip()[len(WHAT) :].strip())
        end += 1
        while end < len(lines) and len(message) < MAX_WHAT_LINES:
            more = strip(lines[end])
            if more is None or not more.strip() or _ends_what(more):
                break
            message.append(more.rstrip())
            end += 1
    for k in range(i, end):
        claimed[k] = True
    event = ErrorEvent("unknown", error_type, "\n".join(message), extractor="cpp-terminate", line_number=i + 1)
    return event, end


def _ends_what(line: str) -> bool:
    """A line after a `what():` message that is not part of it: the dump or the shell's line that follows the
    abort, a frame of torch's `Exception raised from` trailer, another end."""
    text = line.strip()
    return (
        # `[` opens a launcher's or a logger's tag (ROS's `[node-2] process has died`), never a message's line.
        text.startswith((FAULTHANDLER, "Exception raised from ", "frame #", TERMINATE, "["))
        or _shell_signal(line) is not None
    )


def _faulthandler(lines: list[str], i: int, claimed: list[bool]) -> tuple[tuple[ErrorEvent, str], int] | None:
    """`Fatal Python error: NAME` and the dump after it: the event, the signal it names, and the line after it."""
    line = lines[i].strip()
    if not line.startswith(FAULTHANDLER):
        return None
    name = line[len(FAULTHANDLER) :].strip()
    frames: list[Frame] = []
    current = False
    end = i + 1
    while end < len(lines) and end - i < MAX_DUMP_LINES:
        text = lines[end]
        header = THREAD_HEADER.match(text.strip()) if "most recent call first" in text else None
        if header:
            current = header.group("current") == "Current thread"
        elif (frame := DUMP_FRAME.match(text)) if 'File "' in text else None:
            if current:
                number = frame.group("line")
                frames.append(
                    Frame(frame.group("file"), int(number) if number.isdigit() else None, None, frame.group("function"))
                )
        elif not _dump_line(text):
            break
        end += 1
    while end > i + 1 and not lines[end - 1].strip():
        end -= 1  # the blank lines after the dump are not its own
    for k in range(i, end):
        claimed[k] = True
    innermost_first = tuple(frames)
    event = ErrorEvent(
        "python",
        "Fatal Python error",
        name,
        location=innermost_first[0] if innermost_first else None,
        frames=innermost_first,
        user_frame=user_frame(innermost_first, "python", innermost_first=True),
        extractor="python-faulthandler",
        line_number=i + 1,
    )
    return (event, FAULTHANDLER_SIGNALS.get(name, "SIGABRT")), end


def _dump_line(text: str) -> bool:
    """A line of a faulthandler dump other than a thread's header or frame: blank, `Python runtime state`, an
    elided stack, the C stack of 3.13+, the list of extension modules."""
    body = text.strip()
    return (
        not body
        or text.startswith("  ")
        or body.startswith(("Python runtime state:", "Extension modules: ", "Current thread's C stack"))
        or body.startswith(("Garbage-collecting", "<no Python frame>", "Stack (most recent call first):"))
    )


def _joins_terminate(events: list[ErrorEvent], lines: list[str], claimed: list[bool], i: int) -> bool:
    """The dump is the Python side of the `terminate` just before it (torch's C++ aborting the interpreter)."""
    return bool(events) and events[-1].extractor == "cpp-terminate" and _ends_an_error(lines, claimed, i)


def _shell_signal(line: str) -> tuple[str, str] | None:
    """The signal a shell's line names, and its words: None for any other line."""
    text = line.strip()
    if "SIG" in text and "signal: " in text:
        cargo = CARGO_SIGNAL.search(text)
        return (cargo.group("signal"), f"{cargo.group('signal')}: {cargo.group('what')}") if cargo else None
    if text.startswith(("zsh: ", "[")):
        zsh = ZSH_SIGNAL.match(text)
        if zsh:
            return SIGNAL_WORDS[zsh.group("name")], zsh.group("name") + (zsh.group("core") or "")
        return None
    bash = SHELL_SIGNAL.match(text) if any(word in text for word in SIGNAL_WORDS) else None
    if bash is None:
        return None
    if bash.group("command").strip() and not bash.group(
        "job"
    ):  # alone on its line, or after bash's `line N: PID`: never in a sentence
        return None
    return SIGNAL_WORDS[bash.group("name")], bash.group("name") + (" (core dumped)" if bash.group("core") else "")
