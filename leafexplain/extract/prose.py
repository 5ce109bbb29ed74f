"""Find an exception line written inside a sentence, or standing alone without its traceback.

People paste the exception line into their own words more often than on a line of its own: ``I get this
error KeyError: 'text' on tweets['python']``, ``运行时候提示ValueError: transformers.__spec__ is None``,
``遇到了这个问题：TypeError: unsupported Python data type: numpy.ndarray，请问如何解决``. The class and its
message are read from where the class starts; the sentence around them is dropped: what comes before the
class, and after an English message the first character of another script (the reporter's Chinese going on).

Two lines read alone are exception lines too, though no traceback is around them: a class with a colon and
nothing after it (IPython's `NotImplementedError: ` for an exception with no message, numpy's `ImportError: `
whose message starts on the next line), and a library's class named in full, alone on its line
(`requests.exceptions.ConnectionError`).

An OSError's text re-printed without its class (`An error occurred: [Errno 104] Connection reset by peer`) is that
OSError: `[Errno N] text` is how OSError prints itself, and N gives the class CPython makes of it. So is its repr
in a log (`ConnectionRefusedError(111, 'Connection refused')`, urllib3's `Caused by SSLError(SSLError(1, '…'))`).

Runs after every other extractor, on the lines none of them took: a traceback's or a log's own exception
line is theirs.
"""

from __future__ import annotations

from leafexplain.extract.oserror import LINUX_STRERROR, OS_ERRNO, OS_ERROR_CLASSES, WINDOWS_ERRNO
from leafexplain.extract.python import exception_event
from leafexplain.models import ErrorEvent
from leafexplain.regex import lazy_regex

# The class: not glued to a Latin word or a dotted name before it (a CJK character before it is prose, as
# `提示ValueError` shows), `Error` or `Exception` ending its last part; then a colon, ASCII or full-width.
INLINE = lazy_regex(
    r"(?<![A-Za-z0-9_.])(?P<type>(?:[A-Za-z_]\w*\.)*[A-Z][A-Za-z0-9_]*(?:Error|Exception))(?::(?!:) ?|：)"
    r"(?P<message>\S.*)$"
)
# A class and its colon, nothing after: the message is empty, or on the lines below.
EMPTY = lazy_regex(r"^\s*(?P<type>(?:[A-Za-z_]\w*\.)*[A-Z][A-Za-z0-9_]*(?:Error|Exception)):\s*$")
# A class named in full, with its module, alone on its line.
QUALIFIED = lazy_regex(r"^\s*(?P<type>(?:[a-z_][a-z0-9_]*\.)+[A-Z][A-Za-z0-9_]*(?:Error|Exception))\s*$")
# An OSError as its repr prints it, in a log or a sentence (`ConnectionRefusedError(111, 'Connection refused')`,
# urllib3's `Caused by SSLError(SSLError(1, '[SSL: CERTIFICATE_VERIFY_FAILED] …'))`): the class, errno and text.
REPR = lazy_regex(
    r"(?<![\w.])(?P<type>[A-Z][A-Za-z]*Error)\((?P<errno>\d+), (?P<q>['\"])(?P<text>[^'\"\n]{3,}?)(?P=q)\)"
)
MAX_LINE = 2000  # longer lines are a log's data, not a sentence
MAX_MESSAGE_LINES = 20
# Marks a sentence puts around a quoted error: dropped from the message's end.
_TRAILING_MARKS = "*`_ "
_CLOSING = {'"': '"', "“": "”", "「": "」", "『": "』", "(": ")", "（": "）"}


# Words before a class that say the sentence is about code, not an error that happened: a docstring's `:raises
# ValueError: if ...`, a JavaScript console's `Uncaught RuntimeError: unreachable` (a wasm trap, not Python's).
_NOT_RAISED = ("raise", "raises", "Raises", "raised", "except", "Uncaught", "(in promise)")


def _other_script(char: str) -> bool:
    """A CJK ideograph, kana, hangul or a full-width sign: the reporter's words going on after an English message."""
    code = ord(char)
    return 0x2E80 <= code <= 0x9FFF or 0xAC00 <= code <= 0xD7AF or 0xFF00 <= code <= 0xFFEF or 0x3000 <= code <= 0x303F


def _message(text: str, opener: str) -> str:
    """The message out of the rest of the sentence: cut where another script starts after an English message, or
    at the quote that closes the one opened before the class; the sentence's marks off its end."""
    if text[:1].isascii():
        cut = next((n for n, char in enumerate(text) if _other_script(char)), len(text))
        text = text[:cut]
    closing = _CLOSING.get(opener)
    if closing and closing in text:
        text = text[: text.rindex(closing)]
    return text.rstrip().rstrip(_TRAILING_MARKS).rstrip()


def _lines_after(lines: list[str], claimed: list[bool], i: int) -> list[str]:
    """The lines that carry an empty exception line's message (numpy's `ImportError: ` then its text): up to a
    blank line, none of them claimed nor an indented frame."""
    out: list[str] = []
    while i < len(lines) and len(out) < MAX_MESSAGE_LINES and not claimed[i] and lines[i].strip():
        if lines[i][:1].isspace():
            break
        out.append(lines[i])
        i += 1
    return out


def _os_error(line: str, i: int) -> ErrorEvent | None:
    """An OSError's text re-printed without its class (`An error occurred: [Errno 104] Connection reset by peer`,
    `Error in AVDC_Main: [WinError 5] 拒绝访问。: '…'`): `[Errno N] text` is how OSError prints itself, and N gives the
    class CPython makes of it (errno 104 a ConnectionResetError; Windows' code by the errno it stands for)."""
    at = min((n for n in (line.find("[Errno "), line.lower().find("[winerror ")) if n >= 0), default=-1)
    found = OS_ERRNO.match(line[at:]) if at >= 0 else None
    if found is None:
        return None
    errno, text, windows = int(found.group("errno")), found.group("text"), found.group("system").lower() == "winerror"
    if windows:
        errno = WINDOWS_ERRNO.get(errno, 0)
    # The system's words after the code, not a sentence's (`see [Errno 2] in the docs`): Linux's English for that
    # errno, Windows' English sentence, or the text of another language.
    if text.isascii() and not (text.startswith(LINUX_STRERROR.get(errno, "\0")) or (windows and text[:1].isupper())):
        return None
    error_type = next((name for name, number in OS_ERROR_CLASSES.items() if number == errno), "OSError")
    # The text is the system's, in its language: kept whole, up to the quote that closes one opened before it.
    message, closing = line[at:].rstrip(), {**_CLOSING, "'": "'", "`": "`"}.get(line[at - 1 : at])
    if closing and closing in message:
        message = message[: message.rindex(closing)]
    message = message.rstrip(_TRAILING_MARKS)
    return exception_event(error_type, [message], [], i, None, "python-prose") if message else None


def _os_error_repr(line: str, i: int) -> ErrorEvent | None:
    """An OSError's repr (`ConnectionRefusedError(111, 'Connection refused')`): the error it prints as, `[Errno 111]
    Connection refused` of that class. ssl's SSLError prints its text alone (`[SSL: CERTIFICATE_VERIFY_FAILED] …`).
    Another class's repr with a number first is not known to be an OSError's: left alone."""
    found = REPR.search(line)
    if found is None:
        return None
    error_type, errno, text = found.group("type"), int(found.group("errno")), found.group("text")
    if error_type == "SSLError":
        return exception_event("ssl.SSLError", [text], [], i, None, "python-prose")
    expected = OS_ERROR_CLASSES.get(error_type, -1)
    if expected == -1 or (expected is not None and expected != errno):
        return None
    return exception_event(error_type, [f"[Errno {errno}] {text}"], [], i, None, "python-prose")


def extract(lines: list[str], claimed: list[bool]) -> list[ErrorEvent]:
    events: list[ErrorEvent] = []
    for i, line in enumerate(lines):
        if claimed[i] or len(line) > MAX_LINE:
            continue
        event = _exception_in(lines, claimed, i) if "Error" in line or "Exception" in line else None
        # (Not a retry's warning, `Retrying (Retry(total=4…)) after connection broken by …[Errno 111]…`: it goes on.)
        os_text = "[Errno " in line or "[WinError " in line or "[winerror " in line
        if event is None and os_text and "Retry" not in line:
            event = _os_error(line, i)
            claimed[i] = event is not None
        if event is None and "Error(" in line:
            event = _os_error_repr(line, i)
            claimed[i] = event is not None
        if event is not None:
            events.append(event)
    return events


def _exception_in(lines: list[str], claimed: list[bool], i: int) -> ErrorEvent | None:
    """The exception line in lines[i], in a sentence or alone (the lines it used claimed), or None."""
    line = lines[i]
    if ":" not in line and "：" not in line:
        alone = QUALIFIED.match(line) if "." in line else None
        if alone:
            claimed[i] = True
            return exception_event(alone.group("type"), [""], [], i, None, "python-prose")
        return None
    empty = EMPTY.match(line)
    if empty:
        more = _lines_after(lines, claimed, i + 1)
        for k in range(i, i + 1 + len(more)):
            claimed[k] = True
        return exception_event(empty.group("type"), ["", *more], [], i, None, "python-prose")
    found = INLINE.search(line)
    if found is None:
        return None
    full_width = "：" in line[found.end("type") : found.start("message")]
    before = line[: found.start()]
    # At the line's start it is the bare extractor's, which left it for a reason; but not for a full-width colon
    # (`AttributeError：模块“torch”没有属性“Tensor”`, the message translated), which it does not read. Python
    # prints an English message after its ASCII colon: Chinese after it is a sentence going on (`TabError:代码…`).
    in_sentence = bool(before.strip())
    if not (in_sentence or full_width) or (
        not found.group("message")[:1].isascii() and (in_sentence or not full_width)
    ):
        return None
    if before.rstrip(" `*").endswith(_NOT_RAISED):
        return None
    message = _message(found.group("message"), line[found.start() - 1])
    if not message:
        return None
    claimed[i] = True
    return exception_event(found.group("type"), [message], [], i, None, "python-prose")
