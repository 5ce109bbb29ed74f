"""The process leafexplain runs in, as one injectable object: streams, terminal facts, variables, XDG folders.

This is the only module that asks whether a stream is a terminal, how wide it is, or reads
COLUMNS, the colour variables (NO_COLOR, FORCE_COLOR, CLICOLOR_FORCE) and the XDG variables.
Everything else is handed an Environment, so a test can pass one of its own (as httpie's
`MockEnvironment` does). Kept free of dataclasses and other slow imports: `leafexplain --help`
reads the width through it.

The environment is input too: COLUMNS is held to what `--width` accepts, a relative XDG folder is
ignored (as the XDG specification says), any output encoding works (symbols it lacks are written
in ASCII), and a standard stream closed before the start is /dev/null, or no input at all.
"""

from __future__ import annotations

import codecs
import io
import os
import sys
from collections.abc import Mapping

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: the everyday path does without it
if TYPE_CHECKING:
    from typing import Any, BinaryIO, Literal, TextIO

    ColorChoice = Literal["auto", "always", "never"]
else:
    ColorChoice = str  # at run time, what the choice is
DEFAULT_PIPE_WIDTH = 100
MIN_WIDTH, MAX_WIDTH = 20, 1000  # what --width accepts: COLUMNS and a terminal's width are held to it too
# Terminals that show OSC 8 hyperlinks, by $TERM and by $TERM_PROGRAM.
HYPERLINK_TERMS = frozenset({"xterm-kitty", "xterm-ghostty", "wezterm", "foot", "foot-extra", "alacritty"})
HYPERLINK_PROGRAMS = frozenset({"iTerm.app", "WezTerm", "vscode", "ghostty"})
_IN_MEMORY: Any = object()
ASCII_ERRORS = "leafexplain-ascii"
# What the output holds beyond ASCII (boxes, rules, bullets, dots, quotes), in ASCII for an encoding without it.
_IN_ASCII = {
    "\u00b7": "-", "\u2022": "*", "\u2026": "...", "\u2014": "--", "\u2013": "-", "\u2018": "'", "\u2019": "'",
    "\u201c": '"', "\u201d": '"', "\u2192": "->", "\u2500": "-", "\u2501": "-", "\u2502": "|", "\u2503": "|",
    "\u250c": "+", "\u2510": "+", "\u2514": "+", "\u2518": "+", "\u256d": "+", "\u256e": "+", "\u256f": "+",
    "\u2570": "+", "\u251c": "+", "\u2524": "+", "\u252c": "+", "\u2534": "+", "\u253c": "+", "\u2550": "=",
    "\u2551": "|", "\u2578": "-", "\u257a": "-", "\u2579": "|", "\u257b": "|", "\u2771": ">", "\u258c": "|",
}  # fmt: skip


def _in_ascii(error: UnicodeError) -> tuple[str, int]:
    """The codec error handler for an output encoding that lacks a character: its ASCII stand-in, else `?`."""
    if not isinstance(error, UnicodeEncodeError):
        raise error
    text = error.object[error.start : error.end]
    return "".join(_IN_ASCII.get(ch, "?") for ch in text), error.end


codecs.register_error(ASCII_ERRORS, _in_ascii)


class Environment:
    """Where input comes from and output goes, and what those places are (a terminal, how wide)."""

    __slots__ = (
        "environ",
        "is_process",
        "redact",
        "stderr",
        "stderr_isatty",
        "stdin",
        "stdin_isatty",
        "stdout",
        "stdout_isatty",
        "width",
    )

    def __init__(
        self,
        *,
        stdin: BinaryIO | None = _IN_MEMORY,
        stdout: TextIO = _IN_MEMORY,
        stderr: TextIO = _IN_MEMORY,
        stdin_isatty: bool = False,
        stdout_isatty: bool = False,
        stderr_isatty: bool = False,
        width: int = DEFAULT_PIPE_WIDTH,
        environ: Mapping[str, str] | None = None,
        is_process: bool = False,
        redact: bool = True,
    ) -> None:
        # A stream not given is one in memory (tests, `render.to_text`); the process's come from `from_process`.
        # stdin None: closed before the start (`<&-`), nothing to read.
        self.stdin: BinaryIO | None = io.BytesIO() if stdin is _IN_MEMORY else stdin
        self.stdout: TextIO = io.StringIO() if stdout is _IN_MEMORY else stdout
        self.stderr: TextIO = io.StringIO() if stderr is _IN_MEMORY else stderr
        self.stdin_isatty = stdin_isatty
        self.stdout_isatty = stdout_isatty
        self.stderr_isatty = stderr_isatty
        self.width = width  # stdout's columns
        self.environ: Mapping[str, str] = environ if environ is not None else {}
        # The real process: signal handlers may be set and file descriptors redirected.
        self.is_process = is_process
        # Secrets in the lines written on stderr are redacted (render.warn); False: --no-redact.
        self.redact = redact

    @classmethod
    def from_process(cls) -> Environment:
        _closed_stays_closed()
        out_tty = _isatty(sys.stdout)
        width = columns_from(os.environ)
        if width is None and out_tty:
            width = _bounded(_terminal_width(sys.stdout.fileno()))
        return cls(
            stdin=sys.stdin.buffer if sys.stdin is not None else None,  # type: ignore[arg-type]
            stdout=whole_writes(sys.stdout),
            stderr=whole_writes(sys.stderr),
            stdin_isatty=_isatty(sys.stdin),
            stdout_isatty=out_tty,
            stderr_isatty=_isatty(sys.stderr),
            width=width or DEFAULT_PIPE_WIDTH,
            environ=os.environ,
            is_process=True,
        )

    def replace(self, **changes: Any) -> Environment:
        values = {name: getattr(self, name) for name in self.__slots__}
        values.update(changes)
        return Environment(**values)

    def on_stderr(self) -> Environment:
        """For output that goes to stderr (`run`'s explanation): its colour and width are stderr's."""
        return self.replace(
            stdout=self.stderr,
            stdout_isatty=self.stderr_isatty,
            width=stream_columns(self.stderr, self.environ),
        )

    @property
    def no_color(self) -> bool:
        """NO_COLOR is set to a non-empty value."""
        return bool(self.environ.get("NO_COLOR"))

    @property
    def color_from_variables(self) -> bool | None:
        """What the colour variables say, None when none says anything (docs/output.md, "Colour").

        NO_COLOR (non-empty: no-color.org) turns colour off; else FORCE_COLOR (non-empty, whatever its
        value: force-color.org) or CLICOLOR_FORCE (set and not 0: bixense.com/clicolors) turns it on,
        on a pipe too. Off wins over on, as in CPython's own colour: a person who asked for none gets none.
        """
        get = self.environ.get
        if get("NO_COLOR"):
            return False
        if get("FORCE_COLOR") or get("CLICOLOR_FORCE", "0") not in ("", "0"):
            return True
        return None

    def use_color(self, choice: ColorChoice) -> bool:
        """Whether to colour: `--color always|never` decides outright; auto asks the colour variables, then
        whether stdout is a terminal."""
        if choice == "always":
            return True
        if choice == "never":
            return False
        said = self.color_from_variables
        return self.stdout_isatty if said is None else said

    @property
    def debug(self) -> bool:
        """LEAFEXPLAIN_DEBUG: show our own tracebacks instead of one line."""
        return bool(self.environ.get("LEAFEXPLAIN_DEBUG"))

    @property
    def hyperlinks(self) -> bool:
        """stdout is a terminal known to show OSC 8 hyperlinks as links (FORCE_HYPERLINK=1 or 0 says so
        outright). Elsewhere a link is also printed whole, as text: a terminal may ignore the sequence."""
        forced = self.environ.get("FORCE_HYPERLINK")
        if forced is not None and forced != "":
            return forced != "0"
        if not self.stdout_isatty or self.environ.get("TMUX") or self.environ.get("STY"):
            return False  # a multiplexer passes the sequence on only when configured to
        get = self.environ.get
        if get("TERM", "") in HYPERLINK_TERMS or get("TERM_PROGRAM", "") in HYPERLINK_PROGRAMS:
            return True
        if get("WT_SESSION") or get("KITTY_WINDOW_ID") or get("DOMTERM"):
            return True
        vte = get("VTE_VERSION", "")
        return vte.isdigit() and int(vte) >= 5000  # GNOME Terminal and other VTE terminals since 0.50

    @property
    def dumb_terminal(self) -> bool:
        """stdout is a terminal whose TERM says it shows no colour (`dumb`, `unknown`): rich's Console writes it
        none even when asked to, and so does the default view (render/formats/terminal.py)."""
        return self.stdout_isatty and self.environ.get("TERM", "").lower() in ("dumb", "unknown")


def home(environ: Mapping[str, str]) -> str:
    """The home folder: HOME when it is an absolute path, else the user's own from the password database (an
    empty HOME would make it `/`, and every file on the machine one of yours)."""
    value = environ.get("HOME", "")
    if os.path.isabs(value):
        return value
    try:
        import pwd  # only when HOME is missing or not a path

        return pwd.getpwuid(os.getuid()).pw_dir
    except (ImportError, KeyError, OSError):
        return os.path.expanduser("~")


def _xdg_dir(environ: Mapping[str, str], name: str, default: str) -> str:
    """An XDG base folder: the variable when it is an absolute path, else its default under the home folder
    (the XDG specification: a relative path is invalid and ignored, so nothing lands in the current folder)."""
    value = environ.get(name) or ""
    return value if os.path.isabs(value) else os.path.join(home(environ), default)


def data_home(environ: Mapping[str, str]) -> str:
    return _xdg_dir(environ, "XDG_DATA_HOME", ".local/share")


def config_home(environ: Mapping[str, str]) -> str:
    return _xdg_dir(environ, "XDG_CONFIG_HOME", ".config")


def cache_dir(environ: Mapping[str, str]) -> str:
    """Where leafexplain keeps what it can rebuild: the record index and the completion lists."""
    return os.path.join(_xdg_dir(environ, "XDG_CACHE_HOME", ".cache"), "leafexplain")


def _bounded(width: int) -> int:
    return min(max(width, MIN_WIDTH), MAX_WIDTH)


def columns_from(environ: Mapping[str, str]) -> int | None:
    """COLUMNS as `--width` takes it, held to 20-1000: ASCII digits only (`²` is a digit to Python, and
    `int` refuses it); None when it is unset, 0 or not a number."""
    value = environ.get("COLUMNS", "").strip()
    if not value.isascii() or not value.isdigit() or int(value[:9]) == 0:
        return None
    return _bounded(int(value[:9]))  # nine digits are past the bound already: no huge number is ever made


def _terminal_width(fd: int) -> int:
    import shutil

    try:
        return os.get_terminal_size(fd).columns or DEFAULT_PIPE_WIDTH
    except (AttributeError, ValueError, OSError):
        return shutil.get_terminal_size((DEFAULT_PIPE_WIDTH, 24)).columns


def stream_columns(stream: object, environ: Mapping[str, str], default: int = DEFAULT_PIPE_WIDTH) -> int:
    """COLUMNS, else the width of the terminal `stream` is, else `default`; held to 20-1000."""
    columns = columns_from(environ)
    if columns is not None:
        return columns
    try:
        return _bounded(os.get_terminal_size(stream.fileno()).columns)  # type: ignore[attr-defined]
    except (AttributeError, ValueError, OSError):
        return default


def terminal_columns(default: int = 80) -> int:
    """The width Python's `shutil` reports (COLUMNS, then the real stdout's terminal): what click lays help out to."""
    import shutil

    return shutil.get_terminal_size((default, 24)).columns


def whole_writes(stream: TextIO | None) -> TextIO:
    """A text stream that writes all it is given, or raises (BrokenPipeError when the reader left).

    Under PYTHONUNBUFFERED (or `python -u`) Python's stdout writes straight to the file descriptor,
    and what a partial write leaves (a signal during a long write, a reader that went away) is
    dropped without a word: a buffered layer over the same descriptor writes the rest or raises.
    A stream closed before we started (`>&-`) is read by nobody: /dev/null stands in for it.
    """
    if stream is None:
        return open(os.devnull, "w", encoding="utf-8")
    errors = stream.errors if _encodes(stream.encoding, "\u2500\u2502\u256d\u00b7\u2026\u2014\u2022") else ASCII_ERRORS
    if not isinstance(getattr(stream, "buffer", None), io.RawIOBase):
        if errors == ASCII_ERRORS and isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors=errors)
        return stream
    try:
        raw = io.FileIO(stream.fileno(), "w", closefd=False)
        buffered = io.BufferedWriter(raw)
        return io.TextIOWrapper(buffered, encoding=stream.encoding, errors=errors, line_buffering=stream.line_buffering)
    except (OSError, ValueError, AttributeError):
        return stream


def _encodes(encoding: str | None, text: str) -> bool:
    """The encoding writes every character of `text` (PYTHONIOENCODING=ascii or latin-1 does not)."""
    try:
        text.encode(encoding or "utf-8")
    except (UnicodeError, LookupError):
        return False
    return True


def _closed_stays_closed() -> None:
    """A standard file descriptor closed before the start (`<&-`, `2>&-`) gets /dev/null on it, so that no file
    or pipe opened later takes its number (a child of `run` would write its stderr into it). Python already
    saw it closed: sys.stdin (or stdout, stderr) stays None, and leafexplain treats that stream as closed."""
    for fd, mode in ((0, os.O_RDONLY), (1, os.O_WRONLY), (2, os.O_WRONLY)):
        try:
            os.fstat(fd)
        except OSError:
            opened = os.open(os.devnull, mode)
            if opened != fd:
                os.dup2(opened, fd)
                os.close(opened)


def _isatty(stream: object) -> bool:
    try:
        return bool(stream) and stream.isatty()  # type: ignore[attr-defined]
    except (ValueError, OSError):
        return False
