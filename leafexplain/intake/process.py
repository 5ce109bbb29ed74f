"""A command's output as input (`leafexplain run`): run it, pass its output through live, find its errors.

The child's stdout and stderr go to ours byte for byte as they arrive; a copy of each chunk is
scanned for likely errors in bounded memory (only windows around them are kept).
"""

from __future__ import annotations

import bisect
import contextlib
import os
import queue
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import IO

from leafexplain.env import Environment
from leafexplain.extract import finish
from leafexplain.intake.collect import bound, window_events
from leafexplain.intake.stream import Window, WindowScanner
from leafexplain.models import Collected, ErrorEvent, Limits
from leafexplain.redact import Redactor

CHUNK_BYTES = 64 * 1024
QUEUED_CHUNKS = 16  # at most this many chunks wait for the scanner: a slow scan slows the child, not our memory
CHECKPOINTS_KEPT = 256  # line-number checkpoints are trimmed in batches, not one by one
# Once the child has exited, what is still in its pipes is read for at most this long: a background
# process it left behind may hold them open, and write, for ever (it is not ours to wait for).
DRAIN_AFTER_EXIT_SECONDS = 1.0
EXIT_NOT_FOUND = 127  # as a shell reports a missing command
EXIT_CANNOT_RUN = 126  # found but not executable
SIGNAL_EXIT_BASE = 128  # a child killed by signal N exits 128+N, as in a shell
# Tools that colour only on a terminal are told to colour anyway when our own stdout is one.
FORCE_COLOR_ENV = {"CARGO_TERM_COLOR": "always", "FORCE_COLOR": "1", "PY_COLORS": "1", "CLICOLOR_FORCE": "1"}
STDOUT, STDERR = 1, 2
QUIET_SECONDS = 0.2  # a stream silent this long after an error has finished printing it (streamed formats)


def child_environment(env: Environment) -> dict[str, str] | None:
    """The child's environment: None (inherit ours untouched) unless our stdout is a terminal.

    On a terminal the child keeps its colour (unless the user set NO_COLOR or the variable
    themselves) and a Python child writes unbuffered, so that its output stays live through the pipe.
    """
    if not env.stdout_isatty:
        return None
    child = dict(env.environ)
    if not env.no_color:
        for name, value in FORCE_COLOR_ENV.items():
            child.setdefault(name, value)
    child.setdefault("PYTHONUNBUFFERED", "1")
    return child


def exit_code(returncode: int) -> int:
    """A shell's view of the child's status: its code, or 128+N when signal N killed it."""
    return SIGNAL_EXIT_BASE - returncode if returncode < 0 else returncode


def ending_signal(returncode: int) -> str | None:
    """The name of the signal that ended the child (`SIGKILL`), None when it exited: the number is the
    platform's (SIGBUS is 7 on Linux, 10 on macOS), the name is what is said."""
    if returncode >= 0:
        return None
    try:
        return signal.Signals(-returncode).name
    except ValueError:  # a real-time signal, which has no name of its own
        return f"signal {-returncode}"


class StreamEvents:
    """The errors in one of the child's streams, each numbered by its line in the output as a whole.

    Each stream is scanned on its own: a traceback on stderr stays whole even when stdout lines
    arrive between its lines. Line numbers are mapped back to the order in which lines arrived.
    """

    def __init__(self, redactor: Redactor | None) -> None:
        self.scanner = WindowScanner()
        self.redactor = redactor  # secrets in the output are replaced before its errors are read
        self.lines = 0  # newlines seen in this stream
        self.starts: list[int] = []  # local line where each chunk fed began ...
        self.overall: list[int] = []  # ... and the line of the whole output it began on

    def feed(self, data: bytes, overall_line: int) -> list[ErrorEvent]:
        self.starts.append(self.lines + 1)
        self.overall.append(overall_line)
        self.lines += data.count(b"\n")
        return self._events(self.scanner.feed(data))

    def close(self) -> list[ErrorEvent]:
        return self._events(self.scanner.close())

    def ahead(self) -> list[ErrorEvent]:
        """The errors in what the scanner holds now (WindowScanner.pending), read ahead of its windows; their
        secrets redacted by a redactor of their own, so that the output's counts count each secret once."""
        window = self.scanner.pending()
        if window is None:
            return []
        redactor = None if self.redactor is None else Redactor()
        return [
            event._replace(line_number=self._overall_line(event.line_number))
            for event in window_events(window, redactor, bare=False)
        ]

    def _overall_line(self, local: int) -> int:
        i = bisect.bisect_left(self.starts, local)  # the first chunk that local line is in
        if i == len(self.starts) or self.starts[i] != local:
            i = max(i - 1, 0)
        return self.overall[i] + local - self.starts[i]

    def _events(self, windows: Sequence[Window]) -> list[ErrorEvent]:
        found: list[ErrorEvent] = []
        for window in windows:
            # A command's output is never a message pasted on its own (bare=False): a short
            # successful run must not be taken for one error.
            for event in window_events(window, self.redactor, bare=False):
                found.append(event._replace(line_number=self._overall_line(event.line_number)))
        # Lines the scanner has let go of can no longer start a window: forget where they were.
        keep = max(bisect.bisect_right(self.starts, self.scanner.base_line) - 1, 0)
        if keep > CHECKPOINTS_KEPT:
            del self.starts[:keep], self.overall[:keep]
        return found


class EventCollector:
    """The errors in both streams, in the order they were printed, kept within the limits.

    `each`, when given, is told each distinct error as soon as it is complete, while the command still
    runs: when the scanner lets go of its window, or before, when the stream it is in has been quiet for
    QUIET_SECONDS (a traceback or a panic is printed at once: a pause after it is its end). One the whole
    output's `finish` would group with one told before (the same error again, pytest's summary line of a
    failure) is not told again.
    """

    def __init__(
        self, limits: Limits = Limits(), *, redact: bool = True, each: Callable[[ErrorEvent], None] | None = None
    ) -> None:
        self.redactor = Redactor() if redact else None
        self.streams = {STDOUT: StreamEvents(self.redactor), STDERR: StreamEvents(self.redactor)}
        self.ended: set[int] = set()
        self.line = 1  # line of the whole output the next chunk starts on
        self.events: list[ErrorEvent] = []
        self.limits = limits
        self.dropped = 0  # distinct errors beyond the limits
        self.each = each
        self.told: list[ErrorEvent] = []  # what `each` was told, as `finish` leaves it: distinct errors
        self.fed_at: dict[int, float] = {}  # when each stream last had output not yet read ahead

    def feed(self, stream: int, chunk: bytes) -> None:
        self._take(self.streams[stream].feed(chunk, self.line))
        self.line += chunk.count(b"\n")
        if self.each is not None:
            now = time.monotonic()
            self.fed_at[stream] = now
            self.quiet(now)  # the other stream may have fallen quiet while this one talks

    def quiet(self, now: float) -> None:
        """Each stream quiet for QUIET_SECONDS since its last output: the errors it holds are told (`each`)."""
        for stream, fed_at in list(self.fed_at.items()):
            if now - fed_at >= QUIET_SECONDS:
                del self.fed_at[stream]
                self._tell(self.streams[stream].ahead())

    def end(self, stream: int) -> None:
        if stream not in self.ended:
            self.ended.add(stream)
            self.fed_at.pop(stream, None)
            self._take(self.streams[stream].close())

    def close(self) -> list[ErrorEvent]:
        for stream in self.streams:
            self.end(stream)
        return finish(sorted(self.events, key=lambda e: e.line_number))

    def _take(self, found: list[ErrorEvent]) -> None:
        if found:
            if self.each is not None:
                self._tell(found)
            self.events.extend(found)
            self.events, dropped = bound(self.events, self.limits)
            self.dropped += dropped

    def _tell(self, found: list[ErrorEvent]) -> None:
        for event in found:
            if len(self.told) >= self.limits.max_events:
                return
            if len(finish([*self.told, event])) > len(self.told):  # a new distinct error, not one told again
                self.told.append(event)
                self.each(event)  # type: ignore[misc]  # set: `_take` asks


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        try:
            view = view[os.write(fd, view) :]
        except BlockingIOError:  # our output is non-blocking (a parent's choice) and full: wait, as a write would
            import select

            select.select([], [fd], [])


def _pump(
    pipe: IO[bytes],
    our_fd: int,
    stream: int,
    chunks: queue.Queue[tuple[int, bytes | None]],
    done: threading.Event,
    last_bytes: dict[int, bytes],
) -> None:
    """Copy one of the child's pipes to our own fd as it arrives, and queue each chunk for scanning; once `done`
    (the run is over, a grandchild still writing), nothing more is passed on. `last_bytes[stream]`: the last byte
    passed on, so that what we write after it can start a line of its own."""
    fd = pipe.fileno()
    try:
        while (chunk := os.read(fd, CHUNK_BYTES)) and not done.is_set():
            try:
                _write_all(our_fd, chunk)
            except OSError:
                # Our reader went away (`| head`): close the child's pipe too, so that it meets
                # the closed pipe as it would have without us.
                break
            last_bytes[stream] = chunk[-1:]
            chunks.put((stream, chunk))
    except OSError:
        pass
    finally:
        if not done.is_set():
            with contextlib.suppress(OSError):
                pipe.close()
            chunks.put((stream, None))


@contextlib.contextmanager
def _signals_reach_the_child(child: list[subprocess.Popen[bytes]]) -> Iterator[None]:
    """While the child runs, Ctrl-C is the child's business: the terminal sends SIGINT (and SIGQUIT)
    to the whole foreground process group, so we only note it and wait for the child to finish.
    SIGTERM and SIGHUP, sent to us alone, are passed on to the child."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def wait_for_child(signum: int, frame: object) -> None:
        pass

    def pass_on(signum: int, frame: object) -> None:
        if child:
            with contextlib.suppress(OSError):
                child[0].send_signal(signum)

    wanted = {"SIGINT": wait_for_child, "SIGQUIT": wait_for_child, "SIGTERM": pass_on, "SIGHUP": pass_on}
    previous = {}
    for name, handler in wanted.items():
        number = getattr(signal, name, None)
        if number is not None:
            previous[number] = signal.signal(number, handler)
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


@dataclass(frozen=True)
class RunOutcome:
    exit_code: int
    collected: Collected
    # The child's stdout, as passed through, ended with a newline (or was empty): what is written on our stdout
    # next starts a line. GitHub reads a workflow command only at the start of one.
    stdout_ended_line: bool = True
    signal: str | None = None  # the signal that ended the child (`ending_signal`)


def run_and_scan(
    argv: Sequence[str],
    *,
    child_env: dict[str, str] | None = None,
    stdout_fd: int = 1,
    stderr_fd: int = 2,
    limits: Limits = Limits(),
    redact: bool = True,
    each: Callable[[ErrorEvent], None] | None = None,
) -> RunOutcome:
    """Run `argv`, its output passed through to our fds as it comes (as it is: it is the command's); the
    errors it printed, found, their secrets redacted unless `redact` is False; `each` told each distinct
    error as soon as it is complete (EventCollector), on this thread, while the command runs.

    Raises OSError when the command cannot be started (FileNotFoundError when it does not exist).
    """
    chunks: queue.Queue[tuple[int, bytes | None]] = queue.Queue(maxsize=QUEUED_CHUNKS)
    collector = EventCollector(limits, redact=redact, each=each)
    child: list[subprocess.Popen[bytes]] = []
    done = threading.Event()
    last_bytes: dict[int, bytes] = {}
    with _signals_reach_the_child(child):
        proc = subprocess.Popen(list(argv), stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=child_env)
        child.append(proc)
        for pipe, our_fd, stream in ((proc.stdout, stdout_fd, STDOUT), (proc.stderr, stderr_fd, STDERR)):
            pumped = (pipe, our_fd, stream, chunks, done, last_bytes)
            threading.Thread(target=_pump, args=pumped, daemon=True).start()
        open_streams = 2
        deadline: float | None = None  # once the child has exited: the end of the drain
        while open_streams:
            # Asked at every turn, not only when the pipes fall silent: a grandchild writing without pause
            # must not hide that the child has exited.
            if deadline is None and proc.poll() is not None:
                deadline = time.monotonic() + DRAIN_AFTER_EXIT_SECONDS
            late = deadline is not None and time.monotonic() > deadline
            try:  # once late, only what is already queued is read
                stream, chunk = chunks.get_nowait() if late else chunks.get(timeout=0.1)
            except queue.Empty:
                if late:
                    break
                collector.quiet(time.monotonic())  # the pipes fell silent: errors complete so far are told
                continue
            if chunk is None:
                open_streams -= 1
                collector.end(stream)
            else:
                collector.feed(stream, chunk)
        done.set()
        returncode = proc.wait()
    events = tuple(collector.close())
    redacted = None if collector.redactor is None else collector.redactor.counts()
    ended_line = last_bytes.get(STDOUT, b"\n") == b"\n"
    collected = Collected(events, collector.dropped, redacted)
    return RunOutcome(exit_code(returncode), collected, ended_line, ending_signal(returncode))
