"""What the record commands write: the problems `validate` finds, `verify`'s verdicts, `import` and `update`'s work."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from leafexplain.env import Environment
from leafexplain.models import RecordSet, UpdateSummary, Verdict
from leafexplain.text import printable


def write_validation(loaded: RecordSet, fmt: str, env: Environment) -> None:
    if fmt == "json":
        from leafexplain.render.formats.json_out import validate_document, write_json

        write_json(validate_document(loaded), env)
        return
    for problem in loaded.problems:
        env.stdout.write(f"{printable(str(problem))}\n")
    count = len(loaded.problems)
    env.stdout.write(f"{len(loaded.records)} valid records; {count} problem{'s' if count != 1 else ''}\n")
    env.stdout.flush()


def write_verification(repo: str | None, source: str, verdicts: Sequence[Verdict], fmt: str, env: Environment) -> None:
    if fmt == "json":
        from leafexplain.render.formats.json_out import verify_document, write_json

        write_json(verify_document(repo, source, verdicts), env)
        return
    for v in verdicts:
        where = f"{v.record.filePath}:{v.record.lineNumber}"
        line = f"{v.status:<14} {v.record.slug}  {where}{'  ' + v.detail if v.detail else ''}"
        env.stdout.write(f"{printable(line)}\n")
    bad = sum(not v.ok for v in verdicts)
    total = f"{repo}: {len(verdicts) - bad} of {len(verdicts)} records found at their line"
    env.stdout.write(f"{printable(total)}\n")
    env.stdout.flush()


def write_import_line(env: Environment, outcome: str, record_id: str, target: Path) -> None:
    env.stdout.write(f"{outcome:<9} {printable(record_id)}  {printable(str(target))}\n")


def write_import_counts(env: Environment, counts: Mapping[str, int], root: Path) -> None:
    said = ", ".join(f"{v} {k}" for k, v in counts.items() if v or k == "imported")
    env.stdout.write(f"{said} (into {printable(str(root))})\n")
    env.stdout.flush()


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def write_update(update: UpdateSummary, env: Environment) -> None:
    """`update`: a line for each file or raising line not kept and why, why the run stopped, then the counts."""
    out: list[str] = []
    for outcome in update.outcomes:
        if outcome.status == "fetched":
            continue
        place = outcome.place
        where = f"{place.repo} {place.commit[:10]} {place.path}" + (f":{place.line}" if outcome.records == 1 else "")
        line = f"{outcome.status:<8} {where}: {outcome.reason}"
        if outcome.retried:
            line += f"; {_plural(outcome.retried, 'record')} tried at the next messageVariants place instead"
        elif outcome.records > 1:
            line += f" ({outcome.records} records)"
        out.append(line)
    if update.stopped:
        left = f"; {_plural(update.not_tried, 'file')} left" if update.not_tried else ""
        out.append(f"stopped: {update.stopped}{left}: run `leafexplain update` again to go on")
    for repo, wanted, have in update.by_repo:
        out.append(f"{repo}: {have} of {_plural(wanted, 'record')} with their source lines")
    fetched = sum(o.status == "fetched" for o in update.outcomes)
    wanted = sum(w for _, w, _ in update.by_repo)
    have = sum(h for _, _, h in update.by_repo)
    total = (
        f"{have} of {_plural(wanted, 'record')} with their source lines in {update.cache}: "
        f"{update.cached_before} cached before, {update.fetched} now ({_plural(fetched, 'file')} fetched)"
    )
    if update.at_variants:
        total += f"; {update.at_variants} at a messageVariants commit"
    if update.without_place:
        total += f"; {update.without_place} name no commit, file and line"
    out.append(total)
    env.stdout.write("".join(f"{printable(line)}\n" for line in out))
    env.stdout.flush()
