"""Find rustc's diagnostics written as JSON: `rustc --error-format=json`, cargo's `--message-format=json` (what
rust-analyzer, editors and CI tools run), a log line of either.

A whole diagnostic carries the text rustc would have printed (`rendered`): an error is read from it by
`extract/rustc.py`, as a diagnostic printed for a person is, so that both give the same event (code, span,
labels and help), at the JSON line's place. A line cut short (a CI log's limit, a paste) still names the message
and the code at its start (`{"message":"use of moved value: `x`","code":{"code":"E0382",...`): that much is the
event. Warnings, and the summaries rustc writes as diagnostics too (`aborting due to 2 previous errors`), are not
errors; their lines are claimed all the same.
"""

from __future__ import annotations

from leafexplain.extract.clues import RUSTC_JSON
from leafexplain.extract.common import user_frame
from leafexplain.models import ErrorEvent, Frame
from leafexplain.regex import lazy_regex

# The start of a diagnostic cut short: its message, then its code (rustc writes the keys in this order; 1.95 puts
# `$message_type` first).
_CUT = lazy_regex(
    r'\{(?:"\$message_type":"diagnostic",)?"message":"(?P<message>(?:[^"\\]|\\.){1,2000})","code":\{"code":"(?P<code>E\d{4})"'
)
MAX_LINE_CHARS = 1 << 20  # a diagnostic's line (its `explanation` holds the error index's page): no more is parsed


def extract(lines: list[str], claimed: list[bool]) -> list[ErrorEvent]:
    events: list[ErrorEvent] = []
    for i, line in enumerate(lines):
        at = line.find('{"')
        if claimed[i] or at < 0 or len(line) > MAX_LINE_CHARS:
            continue
        if line.startswith('{"reason":"', at) and '"reason":"compiler-message"' not in line:
            claimed[i] = True  # cargo's other messages (`compiler-artifact`, `build-finished`): a build's report
            continue
        diagnostic = _diagnostic(line[at:]) if any(clue in line for clue in RUSTC_JSON) else None
        if diagnostic is None:
            continue
        claimed[i] = True
        event = _event(diagnostic, i + 1)
        if event is not None:
            events.append(event)
    return events


def _diagnostic(text: str) -> dict | None:
    """The diagnostic a line holds: rustc's object, or the one cargo wraps (`reason: compiler-message`)."""
    import json  # only for a text that holds a diagnostic as JSON

    try:
        found = json.loads(text)
    except ValueError:
        cut = _CUT.match(text)
        if cut is None:
            return None
        try:
            message = json.loads(f'"{cut.group("message")}"')
        except ValueError:
            return None
        return {"message": message, "code": {"code": cut.group("code")}, "level": "error"}
    if isinstance(found, dict) and found.get("reason") == "compiler-message":
        found = found.get("message")
    return found if isinstance(found, dict) and isinstance(found.get("message"), str) else None


def _event(diagnostic: dict, line_number: int) -> ErrorEvent | None:
    """An error's event, read from what rustc rendered for it, else from its fields; None for anything else."""
    if diagnostic.get("level") not in ("error", "error: internal compiler error"):
        return None
    rendered = diagnostic.get("rendered")
    if isinstance(rendered, str) and rendered.strip():
        from leafexplain.extract import rustc

        lines = rendered.split("\n")
        read = rustc.extract(lines, [False] * len(lines))
        return read[0]._replace(line_number=line_number, extractor="rustc-json") if read else None
    code = diagnostic.get("code")
    code = code.get("code") if isinstance(code, dict) else None
    if not (isinstance(code, str) and code[:1] == "E" and code[1:].isdecimal()):
        return None  # with nothing rendered, only an error code says it is an error of the program's
    span = _primary_span(diagnostic.get("spans"))
    return ErrorEvent(
        language="rust",
        error_type="compile",
        message=diagnostic["message"].strip(),
        location=span,
        user_frame=user_frame([span], "rust", innermost_first=True) if span else None,
        extractor="rustc-json",
        line_number=line_number,
        code=code,
    )


def _primary_span(spans: object) -> Frame | None:
    """Where the diagnostic points: its primary span's file, line and column."""
    if not isinstance(spans, list):
        return None
    for span in spans:
        if isinstance(span, dict) and span.get("is_primary") and isinstance(span.get("file_name"), str):
            line, column = span.get("line_start"), span.get("column_start")
            return Frame(
                span["file_name"],
                line if isinstance(line, int) else None,
                column if isinstance(column, int) else None,
            )
    return None
