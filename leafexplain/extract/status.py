"""Find absl status lines (`INTERNAL: ...`, `INVALID_ARGUMENT: ...`): errors XLA and TensorFlow report from C++."""

from __future__ import annotations

from leafexplain.extract.clues import STATUS_CODES
from leafexplain.models import ErrorEvent
from leafexplain.regex import lazy_regex

_CODE_INITIALS = frozenset(code[0] for code in STATUS_CODES)
# The line is the status alone, or a glog/TensorFlow error record of it (`E0717 11:40:54.103908 1234 file.cc:56] `,
# `2024-07-17 11:40:54.103908: E file.cc:56] `): an error's, not an info or a warning's.
STATUS_LINE = lazy_regex(
    r"^(?:[EF]\d{4} [\d:.]+\s+\d+ [\w./+-]+:\d+\] |\d{4}-\d\d-\d\d [\d:.]+: [EF] [\w./+-]+:\d+\] )?"
    rf"(?P<code>{'|'.join(STATUS_CODES)}): (?P<message>\S.*)$"
)


def extract(lines: list[str], claimed: list[bool]) -> list[ErrorEvent]:
    events: list[ErrorEvent] = []
    for i, line in enumerate(lines):
        # A status line opens with its code, or is an error record whose place ends with `] `: string tests before
        # the regex, which most lines of a log never reach.
        head = line.lstrip(" \t`")[:1]
        if claimed[i] or not (head in _CODE_INITIALS or ((head.isdigit() or head in "EF") and "] " in line)):
            continue
        if ": " not in line:
            continue
        m = STATUS_LINE.match(line.strip().strip("`"))  # a status quoted whole as inline code too
        if m is None:
            continue
        claimed[i] = True
        message = f"{m.group('code')}: {m.group('message')}"
        events.append(ErrorEvent("unknown", None, message, extractor="absl-status", line_number=i + 1))
    return events
