"""The jsonl format: one JSON object a line per error, the json format's event object, for tools that read a stream.

Each line is written and flushed as soon as its error is: `leafexplain run --format jsonl -- CMD`
writes each error's line while the command still runs (cli/explain.py streams the line formats).
`show` writes its record and `list` and `search` their rows one a line, as the json format's
entries. Compact and ASCII-only (`\\u` escapes), so that a line is a line whatever the encoding.
"""

from __future__ import annotations

import json

from leafexplain.env import Environment
from leafexplain.models import Record
from leafexplain.render.formats.json_out import event_objects, record_dict, record_entry
from leafexplain.render.shown import Shown
from leafexplain.render.streams import emit
from leafexplain.render.style import Row, Style

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: the everyday path does without it
if TYPE_CHECKING:
    from typing import Any


def _lines(objects: list[dict[str, Any]], env: Environment) -> None:
    if objects:
        emit(env, "".join(json.dumps(o, ensure_ascii=True, separators=(",", ":")) + "\n" for o in objects))
        env.stdout.flush()  # a reader of the stream has each line as it is written


def write_report(shown: Shown, env: Environment, style: Style) -> None:
    report = shown.report
    _lines(event_objects(report.findings, report.located), env)


def write_record(record: Record, env: Environment, style: Style) -> None:
    _lines([record_dict(record)], env)


def write_records(rows: list[Row], env: Environment, style: Style) -> None:
    _lines([record_entry(record, score) for record, score in rows], env)
