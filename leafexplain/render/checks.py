"""What the record commands write: `validate`'s problems, `verify`'s verdicts, `import`'s placements."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from leafexplain.env import Environment
from leafexplain.models import RecordSet, Verdict
from leafexplain.text import printable


def write_validation(loaded: RecordSet, fmt: str, env: Environment) -> None:
    if fmt == "json":
        from leafexplain.render.json_out import validate_document, write_json

        write_json(validate_document(loaded), env)
        return
    for problem in loaded.problems:
        env.stdout.write(f"{printable(str(problem))}\n")
    count = len(loaded.problems)
    env.stdout.write(f"{len(loaded.records)} valid records; {count} problem{'s' if count != 1 else ''}\n")
    env.stdout.flush()


def write_verification(repo: str | None, source: str, verdicts: Sequence[Verdict], fmt: str, env: Environment) -> None:
    if fmt == "json":
        from leafexplain.render.json_out import verify_document, write_json

        write_json(verify_document(repo, source, verdicts), env)
        return
    for v in verdicts:
        where = f"{v.record.filePath}:{v.record.lineNumber}"
        line = f"{v.status:<14} {v.record.slug}  {where}{'  ' + v.detail if v.detail else ''}"
        env.stdout.write(f"{printable(line)}\n")
    bad = sum(not v.ok for v in verdicts)
    summary = f"{repo}: {len(verdicts) - bad} of {len(verdicts)} records found at their line"
    env.stdout.write(f"{printable(summary)}\n")
    env.stdout.flush()


def write_import_line(env: Environment, outcome: str, record_id: str, target: Path) -> None:
    env.stdout.write(f"{outcome:<9} {printable(record_id)}  {printable(str(target))}\n")


def write_import_summary(env: Environment, counts: Mapping[str, int], root: Path) -> None:
    summary = ", ".join(f"{v} {k}" for k, v in counts.items() if v or k == "imported")
    env.stdout.write(f"{summary} (into {printable(str(root))})\n")
    env.stdout.flush()
