#!/usr/bin/env python3
"""The record index as the standard library's SQLite (FTS5) against leafexplain's flat arrays, side by side.

Usage: python bench/sqlite_compare.py [RECORDS.jsonl] (default: 100,000 generated records with distinct
patterns, made as bench/run.py makes them). Run it with the Python of the environment to measure
(bench/run.py's fresh venv, say): it times a build of each (seconds, peak memory) and, in new
processes interleaved with `python -c pass`, what an explain needs of the index: open it and find the
candidate records for one message. The SQLite side holds what the flat index holds (a row per record
with the fields the matcher reads, the word index) with FTS5 doing the word index, ranked by bm25.
"""

from __future__ import annotations

import json
import os
import resource
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import generate

MESSAGE = "Can't convert a non leaf tensor into a tracked tensor"
RUNS = 9
SCHEMA = """
create table records (id text primary key, repo text, slug text, pattern text, language text, class text,
                      tags text, variants text, file integer, offset integer, length integer);
create virtual table words using fts5(pattern, content='records', content_rowid='rowid', tokenize='{tokenizer}');
"""
QUERY = (
    "select rowid, bm25(words) from words where words match ? order by bm25(words) limit 200",
    "select r.id, r.pattern, r.language, r.class, r.variants from records r where r.rowid in ({marks})",
)


def build_sqlite(records: Path, db: Path, tokenizer: str) -> None:
    """Streams the record file into the database, one record in memory at a time, each validated and its
    words worked out as the flat index's build does."""
    from leafexplain.records.catalog import record_wordings
    from leafexplain.records.patterns import pattern_text
    from leafexplain.records.schema import validate_record

    con = sqlite3.connect(db)
    con.executescript(SCHEMA.format(tokenizer=tokenizer))
    offset = 0
    with records.open("rb") as handle, con:
        for number, line in enumerate(handle, 1):
            wrapper = json.loads(line)
            record, _ = validate_record(wrapper["record"], str(records), number, wrapper.get("datasetVersion"))
            here, offset = offset, offset + len(line)
            if record is None:
                continue
            [pattern_text(p).tokens for p in (record.messagePattern, *(v[0] for v in record_wordings(record)))]
            con.execute(
                "insert or replace into records values (?,?,?,?,?,?,?,?,?,?,?)",
                (record.id, record.repo, record.slug, record.messagePattern, record.language,
                 record.errorClass or "", "\x1e".join(record.tags), "", 0, here, len(line)),
            )  # fmt: skip
        con.execute("insert into words(words) values ('rebuild')")
    con.close()


LOOKUP = "\n".join(
    [
        "import sqlite3, sys",
        "import leafexplain.match  # explaining needs the matcher whichever index feeds it",
        'con = sqlite3.connect(f"file:{sys.argv[1]}?mode=ro", uri=True)',
        "words = ' OR '.join(chr(34) + w + chr(34) for w in sys.argv[2].replace(chr(39), ' ').split() if len(w) >= 3)",
        f"rows = [r for r, _ in con.execute({QUERY[0]!r}, (words,))]",
        f"found = con.execute({QUERY[1]!r}.format(marks=','.join('?' * len(rows))), rows).fetchall()",
    ]
)

FLAT = """
import os, sys
from leafexplain.records import open_catalog
from leafexplain.records.patterns import message_words
import leafexplain.match  # explaining needs the matcher whichever index feeds it
catalog = open_catalog([sys.argv[1]], bundled=False, configured=False, environ=os.environ)
catalog.candidates(message_words(sys.argv[2]))
"""


def timed(cmd: list[str], env: dict[str, str]) -> float:
    t = time.perf_counter()
    subprocess.run(cmd, env=env, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - t


def peak_of(code: str, *args: str) -> tuple[float, int]:
    """Seconds and peak MB of running `code` in a new process."""
    wrapper = (
        "import resource, subprocess, sys, time\nt = time.perf_counter()\nsubprocess.run(sys.argv[1:], check=True)\n"
    )
    wrapper += "print(time.perf_counter() - t, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
    out = subprocess.run(
        [sys.executable, "-c", wrapper, sys.executable, "-c", code, *args], capture_output=True, text=True
    )
    seconds, kb = out.stdout.split()
    return float(seconds), int(kb) // 1024


def main() -> None:
    folder = Path(tempfile.mkdtemp(prefix="leafexplain-sqlite-"))
    records = Path(sys.argv[1]) if len(sys.argv) > 1 else generate.make_records(folder)["100000"]
    env = {**os.environ, "XDG_CACHE_HOME": str(folder / "cache")}
    os.environ.update(env)
    print(f"records: {records}; python {sys.version.split()[0]}; sqlite {sqlite3.sqlite_version}")
    build_flat = FLAT.replace("catalog.candidates(message_words(sys.argv[2]))", "")
    seconds, peak = peak_of(build_flat, str(records))
    print(f"flat arrays: build {seconds:.1f} s, peak {peak} MB")
    for tokenizer in ("unicode61", "trigram"):
        db = folder / f"index-{tokenizer}.sqlite"
        code = f"import sys; sys.path.insert(0, {str(Path(__file__).parent)!r}); import sqlite_compare as s; "
        code += f"from pathlib import Path; s.build_sqlite(Path(sys.argv[1]), Path({str(db)!r}), {tokenizer!r})"
        seconds, peak = peak_of(code, str(records))
        print(f"sqlite fts5 ({tokenizer}): build {seconds:.1f} s, peak {peak} MB, {db.stat().st_size >> 20} MB on disk")
    python_pass = [sys.executable, "-c", "pass"]
    flat = [sys.executable, "-c", FLAT, str(records), MESSAGE]
    lookup = [sys.executable, "-c", LOOKUP, str(folder / "index-unicode61.sqlite"), MESSAGE]
    times: dict[str, list[float]] = {"python -c pass": [], "flat arrays": [], "sqlite fts5": []}
    for _ in range(RUNS):
        for name, cmd in zip(times, (python_pass, flat, lookup), strict=True):
            times[name].append(timed(cmd, env))
    base = statistics.median(times["python -c pass"])
    for name, values in times.items():
        median = statistics.median(values)
        print(
            f"open the index, find the candidates (new process): {name}: {median * 1000:.0f} ms ({median / base:.1f}x)"
        )
    print(f"(medians of {RUNS}; this process's peak {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss >> 10} MB)")


if __name__ == "__main__":
    main()
