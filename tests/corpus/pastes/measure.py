#!/usr/bin/env python3
"""Measure leafexplain against a batch of the corpus of real pastes in this folder (batch 1 unless --manifest).

Standalone: it imports nothing from leafexplain. Each case is run through the
installed command line (``leafexplain --format json --no-source --file CASE``),
or through another command given with ``--cmd`` (for example
``--cmd "python -m leafexplain"``), and the JSON envelope is read.

Rates printed:

- positives explained by the right record: the top match of some event has
  ``id == record`` (positives whose ``record`` is null are counted apart, as
  "no record yet");
- negatives left unexplained: no event has a match (a match on a case marked
  ``generic_ok`` counts as fine, and is reported apart);
- no-error inputs: no event at all and exit code 0.

Options: ``--list-misses`` lists every miss with what came back;
``--resolve`` prints, for positives with ``record: null``, the top match next to
the key, so a person can label them; ``--json`` prints the results as JSON;
``--fail-under-positive/--fail-under-negative/--fail-under-no-error`` make the
exit code 1 when a rate is below the given fraction (for a CI gate).
"""

from __future__ import annotations

import argparse
import collections
import concurrent.futures
import json
import os
import shlex
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def load_manifest(path):
    rows = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if line:
                try:
                    rows.append(json.loads(line))
                except json.JSONDecodeError as e:
                    sys.exit(f"{path}:{n}: bad JSON: {e}")
    return rows


def run_case(cmd, case_path, timeout):
    argv = [*cmd, "--format", "json", "--no-source", "--file", case_path]
    env = dict(os.environ)
    env.setdefault("NO_COLOR", "1")
    try:
        p = subprocess.run(argv, capture_output=True, text=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        return {"rc": None, "events": None, "error": f"timeout after {timeout}s"}
    except OSError as e:
        return {"rc": None, "events": None, "error": f"cannot run {argv[0]}: {e}"}
    out = {"rc": p.returncode, "events": None, "error": None}
    try:
        out["events"] = json.loads(p.stdout)["events"]
    except (json.JSONDecodeError, KeyError, TypeError):
        tail = (p.stderr or p.stdout or "").strip().splitlines()[-1:] or [""]
        out["error"] = f"exit {p.returncode}, no JSON envelope: {tail[0][:200]}"
    return out


def year_band(y):
    if not isinstance(y, int):
        return "unknown"
    if y <= 2019:
        return "2017-2019"
    if y <= 2022:
        return "2020-2022"
    return "2023-2026"


def top_matches(events):
    tops = []
    for e in events or []:
        m = e.get("matches") or []
        if m:
            tops.append(m[0])
    return tops


def judge(row, res):
    """Return (category, ok, detail)."""
    kind = row["kind"]
    crashed = res["events"] is None or (res["rc"] not in (0, 1))
    if crashed:
        return "crash", False, res["error"] or f"exit {res['rc']}"
    tops = top_matches(res["events"])
    top_ids = [m.get("id") for m in tops]
    if kind == "positive":
        if row.get("record") is None:
            return "no-record-yet", None, top_ids
        return "positive", row["record"] in top_ids, top_ids
    if kind == "negative":
        if not tops:
            return "negative", True, top_ids
        if row.get("generic_ok"):
            return "negative", True, top_ids  # a generic record is a fair answer
        return "negative", False, top_ids
    if kind == "no-error":
        return "no-error", (not res["events"]) and res["rc"] == 0, (len(res["events"]), res["rc"])
    return "unknown-kind", False, kind


def pct(a, b):
    return f"{a}/{b} = {100.0 * a / b:.1f}%" if b else f"{a}/0"


def breakdown(rows, field):
    c = collections.Counter()
    for r in rows:
        v = r.get(field)
        if field == "year":
            v = year_band(v)
        elif field == "library" and isinstance(v, str) and v.startswith("other:"):
            v = "other"
        c[v] += 1
    return ", ".join(f"{k}: {n}" for k, n in c.most_common())


def first_message(events):
    for e in events or []:
        msg = (e.get("message") or "").replace("\n", " ")
        return f"{e.get('error_type')}: {msg[:110]}"
    return "(no event)"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--manifest", default=os.path.join(HERE, "batch1", "manifest.jsonl"))
    ap.add_argument("--cmd", default="leafexplain", help="command that runs leafexplain (default: %(default)s)")
    ap.add_argument("--jobs", type=int, default=max(1, min(4, os.cpu_count() or 1)))
    ap.add_argument("--timeout", type=float, default=60.0)
    ap.add_argument("--kind", choices=["positive", "negative", "no-error"], action="append", help="only these kinds")
    ap.add_argument("--id", action="append", help="only these case ids (repeatable)")
    ap.add_argument("--list-misses", action="store_true", help="list every miss with what came back")
    ap.add_argument(
        "--resolve", action="store_true", help="for positives with record: null, print the top match next to the key"
    )
    ap.add_argument("--json", action="store_true", help="print the results as JSON")
    ap.add_argument("--stats", action="store_true", help="print the corpus counts as markdown tables (runs nothing)")
    ap.add_argument("--fail-under-positive", type=float)
    ap.add_argument("--fail-under-negative", type=float)
    ap.add_argument("--fail-under-no-error", type=float)
    args = ap.parse_args(argv)

    rows = load_manifest(args.manifest)
    if args.stats:
        print_stats(rows)
        return 0
    if args.kind:
        rows = [r for r in rows if r["kind"] in args.kind]
    if args.id:
        want = set(args.id)
        rows = [r for r in rows if r["id"] in want]
    cmd = shlex.split(args.cmd)
    base = os.path.dirname(os.path.abspath(args.manifest))

    def work(r):
        return r, run_case(cmd, os.path.join(base, r["file"]), args.timeout)

    results = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as ex:
        for r, res in ex.map(work, rows):
            cat, ok, detail = judge(r, res)
            results.append({"row": r, "res": res, "cat": cat, "ok": ok, "detail": detail})

    by = collections.defaultdict(list)
    for x in results:
        by[x["cat"]].append(x)
    pos, neg, noe = by["positive"], by["negative"], by["no-error"]
    nry, crashes = by["no-record-yet"], by["crash"]
    pos_ok = sum(1 for x in pos if x["ok"])
    neg_ok = sum(1 for x in neg if x["ok"])
    neg_generic = sum(1 for x in neg if x["ok"] and x["detail"])
    noe_ok = sum(1 for x in noe if x["ok"])
    nry_matched = sum(1 for x in nry if x["detail"])
    rates = {
        "positive": (pos_ok, len(pos)),
        "negative": (neg_ok, len(neg)),
        "no_error": (noe_ok, len(noe)),
    }

    if args.json:
        out = {
            "cases": len(results),
            "rates": {k: {"ok": a, "total": b, "rate": (a / b if b else None)} for k, (a, b) in rates.items()},
            "no_record_yet": {"total": len(nry), "with_some_match": nry_matched},
            "crashes": [x["row"]["id"] for x in crashes],
            "misses": [
                {
                    "id": x["row"]["id"],
                    "kind": x["row"]["kind"],
                    "format": x["row"]["format"],
                    "library": x["row"]["library"],
                    "year": x["row"]["year"],
                    "expected": x["row"].get("record"),
                    "got": x["detail"],
                    "first_event": first_message(x["res"]["events"]),
                }
                for x in results
                if x["ok"] is False
            ],
        }
        if args.resolve:
            out["resolve"] = [resolve_line(x) for x in nry]
        print(json.dumps(out, indent=2, ensure_ascii=False))
    else:
        print(f"cases: {len(results)}  ({breakdown([x['row'] for x in results], 'kind')})")
        print(f"positives explained by the right record:  {pct(pos_ok, len(pos))}")
        print(f"positives with no record yet:              {len(nry)} ({nry_matched} got some match; see --resolve)")
        print(
            f"negatives left unexplained:                {pct(neg_ok, len(neg))}"
            + (f" (incl. {neg_generic} generic_ok answered by a generic record)" if neg_generic else "")
        )
        print(f"no-error inputs with no event and exit 0:  {pct(noe_ok, len(noe))}")
        print(f"crashes / no JSON:                         {len(crashes)}")
        misses = [x for x in results if x["ok"] is False]
        if misses:
            print("\nmisses by category:")
            for field in ("kind", "format", "library", "year"):
                print(f"  by {field:8} {breakdown([x['row'] for x in misses], field)}")
            per_key = collections.Counter((x["row"]["kind"], x["row"].get("key") or "-") for x in misses)
            print("  by key:")
            for (k, key), n in per_key.most_common(25):
                print(f"    {n:3}  {k:9} {key[:90]}")
        if args.list_misses:
            print("\nmisses:")
            for x in misses:
                r = x["row"]
                want = r.get("record") if r["kind"] == "positive" else "(none)"
                print(f"  {r['id']:38} {r['kind']:9} {r['format']:17} want={want} got={x['detail']}")
                print(f"  {'':38} {first_message(x['res']['events'])}")
            for x in crashes:
                print(f"  {x['row']['id']:38} CRASH {x['detail']}")
        if args.resolve:
            print("\nno record yet (key -> what matched):")
            for x in nry:
                print(resolve_line(x))

    fail = False
    for name, thr in (
        ("positive", args.fail_under_positive),
        ("negative", args.fail_under_negative),
        ("no_error", args.fail_under_no_error),
    ):
        a, b = rates[name]
        if thr is not None and b and a / b < thr:
            print(f"FAIL: {name} rate {a / b:.3f} < {thr}", file=sys.stderr)
            fail = True
    if crashes and any(
        t is not None for t in (args.fail_under_positive, args.fail_under_negative, args.fail_under_no_error)
    ):
        print(f"FAIL: {len(crashes)} crash(es)", file=sys.stderr)
        fail = True
    return 1 if fail else 0


def print_stats(rows):
    """Counts by kind, library, format and year band, as markdown tables."""

    def lib(r):
        v = r["library"]
        return "other (" + v.split(":", 1)[1] + ")" if v.startswith("other:") else v

    kinds = ["positive", "negative", "no-error"]

    def table(title, keyf):
        c = collections.defaultdict(collections.Counter)
        for r in rows:
            c[keyf(r)][r["kind"]] += 1
        print(f"| {title} | " + " | ".join(kinds) + " | total |")
        print("| --- | " + " | ".join("---:" for _ in kinds) + " | ---: |")
        for k in sorted(c, key=lambda k: (-sum(c[k].values()), str(k))):
            print(f"| {k} | " + " | ".join(str(c[k][x]) for x in kinds) + f" | {sum(c[k].values())} |")
        tot = collections.Counter(r["kind"] for r in rows)
        print("| **all** | " + " | ".join(str(tot[x]) for x in kinds) + f" | {len(rows)} |\n")

    table("kind", lambda r: r["kind"])
    table("library", lambda r: lib(r) if not lib(r).startswith("other (") else "other")
    table("format", lambda r: r["format"])
    table("year band", lambda r: year_band(r.get("year")))
    pos = [r for r in rows if r["kind"] == "positive"]
    withrec = sum(1 for r in pos if r.get("record"))
    print(
        f"positives with a record now: {withrec}; with record null (no record yet): {len(pos) - withrec}; "
        f"wrapped (payload_key set): {sum(1 for r in pos if r.get('payload_key'))}"
    )
    others = collections.Counter(lib(r) for r in rows if r["library"].startswith("other:"))
    print("other libraries: " + ", ".join(f"{k.split('(')[1][:-1]} {n}" for k, n in others.most_common()))


def resolve_line(x):
    r, events = x["row"], x["res"]["events"] or []
    parts = [f"  {r['id']:38} key={r.get('key')!r}"]
    got = False
    for e in events:
        m = e.get("matches") or []
        if m:
            got = True
            parts.append(
                f"      -> {m[0].get('id')} ({m[0].get('score')}, {m[0].get('method')}): "
                f"{(m[0].get('errorMessage') or '').splitlines()[0][:100]}"
            )
    if not got:
        near = [n for e in events for n in (e.get("near") or [])][:1]
        if near:
            n = near[0]
            parts.append(
                f"      -> no match; nearest {n.get('id')} ({n.get('score')}): "
                f"{(n.get('errorMessage') or '').splitlines()[0][:100] if n.get('errorMessage') else ''}"
            )
        else:
            parts.append(f"      -> no match ({len(events)} event(s))")
    return "\n".join(parts)


if __name__ == "__main__":
    sys.exit(main())
