#!/usr/bin/env python3
"""Measure leafexplain on the random sample of real pastes (tests/corpus/sample/): each case explained in-process.

Each real error is classed by the top match of its events (README.md, "How a case is classed", says it exactly):
``explained``, ``class-level``, ``generic``, ``wrong``, ``unknown`` (an event, no match) or ``no-event``.
A paste with no error in it (kind ``no-error``) is ``clean`` when nothing is found. Prints the figures by
group and overall, then the unknowns grouped by library and class so that record writers see what recurs::

    python tests/corpus/sample/measure.py [--list wrong,unknown] [--json]
"""

from __future__ import annotations

import argparse
import collections
import importlib.util
import json
import re
from collections.abc import Iterable
from pathlib import Path

from leafexplain import session
from leafexplain.match import Matcher
from leafexplain.models import Candidate, Finding, Limits, Record, Report
from leafexplain.records.patterns import compile_pattern, placeholder_only

HERE = Path(__file__).parent


def _paste_batches_measure():
    """The paste batches' measure.py (its manifest reader and rate), loaded under a name of its own: both files
    are called measure.py, so a plain import would find this one."""
    spec = importlib.util.spec_from_file_location("paste_batches_measure", HERE.parent / "pastes" / "measure.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_BATCHES = _paste_batches_measure()
load_manifest, pct = _BATCHES.load_manifest, _BATCHES.pct

GROUPS = ("torch", "burn", "rust", "cpython", "numpy-pandas-sklearn", "other-ml")
OUTCOMES = ("explained", "class-level", "generic", "wrong", "unknown", "no-event")
# The wrappers a record may explain without their cause: `unwrap`/`expect` on an `Err`, the payload a placeholder.
_WRAPPER = re.compile(
    r"^called `(Result|Option)::(unwrap|expect|unwrap_err|expect_err)\(\)` on an? `\w+` value: \{[^{}]*\}$"
)


# Rust std's assertion forms: a wrapper too, its expression and values the crate's (tokio's own `assertion failed:
# now >= lock.elapsed` is tokio's invariant; std's record says what an assertion is, not what this one guards).
_STD_ASSERTION = ("assertion failed: {", "assertion `left {op} right` failed")


_CODE = re.compile(r"\bE\d{4}\b")


def cases() -> list[dict]:
    return [{**case, "file": str(HERE / case["file"])} for case in load_manifest(HERE / "manifest.jsonl")]


def _quotes(text: str) -> str:
    """Backticks and double quotes as single quotes: a paste's Markdown turns one into another."""
    return text.replace("`", "'").replace('"', "'")


def _norm(text: str) -> str:
    return " ".join(_quotes(text).lower().split())


def wordings(record: Record) -> list[str]:
    return [record.messagePattern, *(v.messagePattern for v in record.messageVariants)]


def says(record: Record, part: str) -> bool:
    """The record's wording is the message's identifying part: one of its wordings (placeholders as wildcards),
    or the head of a wording — its first line, or its first sentence when that has three words or more — is found
    in the part; or the part (quotes and case aside) is found in one of its wordings or its message."""
    if not part:
        return False
    heads = {w.split("\n", 1)[0] for w in wordings(record)}
    heads |= {f"{h.split('. ', 1)[0]}." for h in heads if ". " in h and len(h.split(". ", 1)[0].split()) >= 3}
    # Quotes aside, a wording's last period is not asked for: a sentence's own period follows a quoted message.
    if any(
        compile_pattern(w).search(part) or compile_pattern(_quotes(w).rstrip(".")).search(_quotes(part))
        for w in {*wordings(record), *heads}
        if not placeholder_only(w)
    ):
        return True
    return any(_norm(part) in _norm(text) for text in [*wordings(record), record.errorMessage])


def holds(record: Record, part: str, message: str) -> bool:
    """One of the record's wordings, found in the event's message, spans the part: the part is what its
    placeholders hold (`Os { code: 9, kind: Uncategorized, message: "Bad file descriptor" }` is the record of
    that kind, whatever the OS said)."""
    if not part:
        return False
    for wording in wordings(record):
        found = None if placeholder_only(wording) else compile_pattern(wording).search(message)
        if found is not None and _norm(part) in _norm(message[found.start() : found.end()]):
            return True
    return False


def same_code(record: Record, error_class: str) -> bool:
    """A compiler error's code is its class: rustc's `error[E0433]` is the record of errorCode E0433, whatever
    the wording of the rustc version that printed it."""
    code = _CODE.search(error_class or "")
    return bool(code and record.errorCode and record.errorCode == code.group(0))


def short(name: str | None) -> str:
    return (name or "").rsplit(".", 1)[-1]


def same_repository(record: Record, library: str) -> bool:
    """The record's repository is the case's library, or holds it as a folder of its own: a repository merged into
    another's (pydantic/pydantic-core's code lives on in pydantic/pydantic's `pydantic-core/`; added 2026-12-02,
    night)."""
    repo, library = record.repo.lower(), library.lower()
    owner, _, name = library.partition("/")
    return repo == library or (repo.split("/")[0] == owner and record.filePath.lower().startswith(f"{name}/"))


def judge_match(case: dict, top: Candidate, message: str = "") -> str:
    record = top.record
    if placeholder_only(record.messagePattern):
        return "class-level" if short(record.errorClass) == short(case["error_class"]) else "wrong"
    if _WRAPPER.match(record.messagePattern):
        return "generic"
    if same_repository(record, case["library"]) and (
        says(record, case["message_part"])
        or holds(record, case["message_part"], message)
        or same_code(record, case["error_class"])
    ):
        return "explained"
    if record.repo == "rust-lang/rust" and record.messagePattern.startswith(_STD_ASSERTION):
        return "generic"
    return "wrong"


RANK = {outcome: n for n, outcome in enumerate(OUTCOMES)}


def printed_warning(finding: Finding) -> bool:
    """A warning a log printed, explained by a warning's record: an answer, but about no error (added 2026-12-02,
    late, when pandas' SettingWithCopyWarning got its record: the two no-error logs print it)."""
    return finding.event.tentative and finding.best is not None and finding.best.record.errorType == "warning"


def classify(case: dict, report: Report) -> tuple[str, list[str]]:
    """The case's outcome, and the ids of the top matches it was judged by."""
    findings = [f for f in report.findings if not printed_warning(f)]
    if case["kind"] == "no-error":
        return ("clean" if not findings else "not-clean"), [f.best.record.id for f in findings if f.best]
    if not findings:
        return "no-event", []
    judged = [(f.best, f.event.message) for f in findings if f.best]
    if not judged:
        return "unknown", []
    outcome = min((judge_match(case, top, message) for top, message in judged), key=RANK.__getitem__)
    return outcome, [top.record.id for top, _ in judged]


def measure(matcher: Matcher, chosen: Iterable[dict] | None = None) -> list[dict]:
    results = []
    for case in cases() if chosen is None else chosen:
        report = session.explain(Path(case["file"]).read_bytes(), matcher, Limits(), pasted=True)
        outcome, ids = classify(case, report)
        first = report.findings[0].event if report.findings else None
        results.append(
            {**case, "outcome": outcome, "tops": ids, "event": (first.error_type, first.message) if first else None}
        )
    return results


def counts(results: list[dict]) -> dict[str, int]:
    found = collections.Counter(r["outcome"] for r in results if r["kind"] == "positive")
    return {outcome: found[outcome] for outcome in OUTCOMES}


def expected(results: list[dict], about: str) -> dict:
    """expected.json: the figures the gate holds (overall), and by group for the record."""
    real = [r for r in results if r["kind"] == "positive"]
    clean = [r for r in results if r["kind"] == "no-error"]
    by_group = {g: counts([r for r in real if r["group"] == g]) for g in GROUPS}
    return {
        "about": about,
        "cases": len(results),
        "real_errors": len(real),
        "counts": counts(real),
        "no_error": {"cases": len(clean), "clean": sum(r["outcome"] == "clean" for r in clean)},
        "by_group": by_group,
    }


def unknown_groups(results: list[dict]) -> list[tuple[tuple[str, str], list[dict]]]:
    groups: dict[tuple[str, str], list[dict]] = collections.defaultdict(list)
    for r in results:
        if r["kind"] == "positive" and r["outcome"] in ("unknown", "no-event"):
            groups[(r["library"] or "?", short(r["error_class"]) or "?")].append(r)
    return sorted(groups.items(), key=lambda item: (-len(item[1]), item[0]))


def report_text(results: list[dict], listed: set[str]) -> str:
    lines = []
    real = [r for r in results if r["kind"] == "positive"]
    header = f"{'group':22}{'cases':>6}" + "".join(f"{o:>13}" for o in OUTCOMES)
    lines.append(header)
    for group in [*GROUPS, "all"]:
        rows = real if group == "all" else [r for r in real if r["group"] == group]
        c = counts(rows)
        lines.append(f"{group:22}{len(rows):>6}" + "".join(f"{c[o]:>13}" for o in OUTCOMES))
    c = counts(real)
    lines.append("")
    for outcome in OUTCOMES:
        lines.append(f"{outcome:12} {pct(c[outcome], len(real))}")
    clean = [r for r in results if r["kind"] == "no-error"]
    lines.append(f"no-error pastes left clean: {pct(sum(r['outcome'] == 'clean' for r in clean), len(clean))}")
    lines.append("")
    lines.append("unknown and no-event, by library and class (what recurs first; u = unknown, n = no-event):")
    for (library, cls), rows in unknown_groups(results):
        parts = "; ".join(sorted({r["message_part"][:70] or "(message cut)" for r in rows})[:4])
        split = f"{sum(r['outcome'] == 'unknown' for r in rows)}u/{sum(r['outcome'] == 'no-event' for r in rows)}n"
        lines.append(f"  {len(rows):3} {split:>7}  {library:28} {cls:26} {parts}")
    for r in results:
        if r["outcome"] in listed:
            lines.append(
                f"{r['outcome']:10} {r['id']:12} {r['library']:24} {r['error_class']}: {r['message_part'][:60]}"
            )
            lines.append(f"           tops {r['tops']}  event {str(r['event'])[:120]}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--list", default="", help="outcomes whose cases to list, comma-separated (wrong,unknown)")
    parser.add_argument("--json", action="store_true", help="the counts as JSON")
    parser.add_argument("--write-expected", metavar="ABOUT", help="write expected.json with today's figures")
    args = parser.parse_args(argv)
    from leafexplain.records import load_paths

    root = HERE.parents[2] / "records"
    results = measure(Matcher(load_paths([str(root)]).records))
    if args.write_expected:
        (HERE / "expected.json").write_text(json.dumps(expected(results, args.write_expected), indent=2) + "\n")
    elif args.json:
        print(json.dumps(expected(results, ""), indent=2))
    else:
        print(report_text(results, set(filter(None, args.list.split(",")))))


if __name__ == "__main__":
    main()
