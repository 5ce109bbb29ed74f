#!/usr/bin/env python3
"""Add hand-copied pastes to the random sample: cases/<id>.txt and one manifest.jsonl line each.

Reads blocks from stdin, each a header line then the paste verbatim up to the next header::

    @@@ id || url || group || query (group/n) || kind || error_class || library || message_part || year
    <the paste>

It refuses a case whose URL is in a paste batch (tests/corpus/pastes/batch*/manifest.jsonl) or already
in the sample, or whose id is taken, and warns when the message_part is not in the paste word for word.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).parent
MANIFEST = HERE / "manifest.jsonl"
FIELDS = ("id", "url", "group", "query", "kind", "error_class", "library", "message_part", "year")


def known_urls() -> set[str]:
    urls: set[str] = set()
    for path in [*HERE.parent.glob("pastes/batch*/manifest.jsonl"), MANIFEST]:
        if path.exists():
            urls |= {json.loads(line)["url"] for line in path.read_text(encoding="utf-8").splitlines() if line}
    return urls


def blocks(text: str) -> list[tuple[dict, str]]:
    found: list[tuple[dict, list[str]]] = []
    for line in text.splitlines(keepends=True):
        if line.startswith("@@@ "):
            values = [v.strip() for v in line[4:].rstrip("\n").split(" || ")]
            if len(values) != len(FIELDS):
                sys.exit(f"bad header: {line!r}")
            found.append((dict(zip(FIELDS, values, strict=True)), []))
        elif found:
            found[-1][1].append(line)
    return [(head, "".join(body).strip("\n") + "\n") for head, body in found]


def main() -> None:
    urls = known_urls()
    ids = {p.stem for p in (HERE / "cases").glob("*.txt")}
    with MANIFEST.open("a", encoding="utf-8") as manifest:
        for head, paste in blocks(sys.stdin.read()):
            if head["url"] in urls:
                print(f"SKIP {head['id']}: URL already used: {head['url']}")
                continue
            if head["id"] in ids:
                sys.exit(f"id taken: {head['id']}")
            if head["kind"] == "positive" and head["message_part"] not in paste:
                print(f"WARN {head['id']}: message_part not in the paste")
            (HERE / "cases" / f"{head['id']}.txt").write_text(paste, encoding="utf-8")
            case = {
                "id": head["id"],
                "file": f"cases/{head['id']}.txt",
                "url": head["url"],
                "group": head["group"],
                "query": head["query"],  # the query group and its number in queries.md
                "year": int(head["year"]) if head["year"].isdigit() else None,
                "kind": head["kind"],
                "error_class": head["error_class"],
                "library": head["library"],
                "message_part": head["message_part"],
                "record": "",
            }
            manifest.write(json.dumps(case, ensure_ascii=False) + "\n")
            urls.add(head["url"])
            ids.add(head["id"])
            print(f"added {head['id']}")


if __name__ == "__main__":
    main()
