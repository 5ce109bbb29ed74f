"""The benchmark's generated data: record files of growing size and kind, and big logs with real errors in them.

Four kinds of 100,000 records: distinct patterns (each has words no other has), realistic wording
(the bundled records' real patterns with 40% of their words swapped for words of other real
patterns), the worst case (every pattern made of one small shared vocabulary, the words of the
panic being explained among them, so that words tell records apart poorly), and one wording shared
(10,000 records with the very wording of the panic being explained, the rest distinct: one wording
found in the message, with thousands of records behind it).
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from collections.abc import Collection
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "tests" / "corpus" / "outputs"
RECORD_SIZES = (100, 1_000, 10_000, 100_000)
VARIANT_SIZE = 100_000
SWAPPED_SHARE = 0.4
PANICS_IN_BIG_LOG = 200

NOUNS = [
    "tensor",
    "buffer",
    "shape",
    "kernel",
    "device",
    "stream",
    "handle",
    "graph",
    "node",
    "module",
    "record",
    "checkpoint",
    "optimizer",
    "batch",
    "layer",
]
VERBS = [
    "allocate",
    "resize",
    "broadcast",
    "reshape",
    "launch",
    "bind",
    "register",
    "flush",
    "load",
    "save",
    "encode",
    "decode",
    "merge",
    "split",
]
ADJ = ["invalid", "missing", "stale", "detached", "unaligned", "oversized", "negative", "empty", "duplicate", "foreign"]
# The worst case: patterns of 5 to 10 words from one small vocabulary (the 300 commonest words of the real
# patterns, and the panic's own), so that every word is shared by thousands of records.
SHARED_WORDS = 300
PANIC_WORDS = ["Can't", "convert", "a", "non", "leaf", "tensor", "into", "tracked"]
# The shared wording: the panic's own (tests/corpus/outputs/rust/cargo-run-leaf.txt), every SHARED_EVERY-th record.
SHARED_WORDING = "Can't convert a non leaf tensor into a tracked tensor"
SHARED_EVERY = 10
PLACEHOLDER = re.compile(r"\{[^{}]*\}|%[sdr]")


def _record(n: int, pattern: str, message: str, rng: random.Random) -> str:
    component = f"{rng.choice(NOUNS)}_{n:06d}"
    prose = " ".join(rng.choice(NOUNS + VERBS + ADJ) for _ in range(60))
    record = {
        "id": f"{n:016x}", "repo": f"bench/{rng.choice(NOUNS)}-lib", "slug": f"bench-{n}",
        "errorCode": None, "errorMessage": message, "messagePattern": pattern,
        "errorType": "panic", "errorClass": None, "httpStatus": None, "severity": "error",
        "filePath": f"crates/{component}/src/lib.rs", "lineNumber": 42, "sourceCode": "",
        "sourceCodeStart": 27, "sourceCodeEnd": 62,
        "githubUrl": f"https://github.com/bench/lib/blob/{'a' * 40}/crates/{component}/src/lib.rs#L27-L62",
        "documentation": prose, "triggerScenarios": prose, "commonSituations": prose,
        "solutions": [prose[:120], prose[120:240]], "exampleFix": "// before\nx\n// after\nfn main() {}",
        "handlingStrategy": "validation", "validationCode": prose[:200], "typeGuard": prose[:200],
        "tryCatchPattern": prose[:200], "preventionTips": [prose[:100]], "tags": ["rust", rng.choice(NOUNS)],
        "backgroundTag": "bench", "analyzedSha": "a" * 40, "analyzedAt": "2026-11-30T00:00:00.000Z",
        "contentChangedAt": "2026-11-30T00:00:00.000Z", "schemaVersion": 2,
    }  # fmt: skip
    return json.dumps({"record": record, "datasetVersion": "2026-11-30T00:00:00.000Z"}) + "\n"


def _filled(pattern: str, rng: random.Random) -> str:
    return PLACEHOLDER.sub(lambda _: str(rng.randint(1, 999)), pattern)


def _distinct(n: int, rng: random.Random) -> tuple[str, str]:
    noun, verb, adj = rng.choice(NOUNS), rng.choice(VERBS), rng.choice(ADJ)
    pattern = f"Cannot {verb} {adj} {noun} in {rng.choice(NOUNS)}_{n:06d}: expected {{}} but found {{}} (code {n})"
    return pattern, _filled(pattern, rng)


def real_patterns() -> list[str]:
    """The bundled records' own patterns, but for those of an exception class alone (a bare `KeyError: {}`)."""
    patterns = []
    for path in sorted((ROOT / "records").rglob("*.json")):
        data = json.loads(path.read_text())
        pattern = data.get("record", data)["messagePattern"]
        if sum(len(w) for w in PLACEHOLDER.sub(" ", pattern).split() if w.isalpha()) >= 12:
            patterns.append(pattern)
    return patterns


def _realistic(rng: random.Random, patterns: list[str], vocabulary: list[str]) -> tuple[str, str]:
    words = rng.choice(patterns).split(" ")
    for i, word in enumerate(words):
        if not PLACEHOLDER.search(word) and rng.random() < SWAPPED_SHARE:
            words[i] = rng.choice(vocabulary)
    pattern = " ".join(words)
    return pattern, _filled(pattern, rng)


def _shared(rng: random.Random, vocabulary: list[str]) -> tuple[str, str]:
    words = [rng.choice(vocabulary) for _ in range(rng.randint(5, 10))]
    words.insert(rng.randint(1, len(words)), "{}")
    pattern = " ".join(words)
    return pattern, _filled(pattern, rng)


def make_records(folder: Path, kinds: Collection[str] = ()) -> dict[str, Path]:
    """Record files by name: `100` ... `100000` (distinct patterns), `realistic`, `worst`, `one-wording`; only
    those of `kinds`, when given."""
    if kinds and set(kinds) <= {"one-wording"}:
        return {"one-wording": _written(folder / "records-one-wording.jsonl", one_wording())}
    paths: dict[str, Path] = {}
    rng = random.Random(7)
    lines = [_record(n, *_distinct(n, rng), rng) for n in range(max(RECORD_SIZES))]
    for size in RECORD_SIZES:
        paths[str(size)] = _written(folder / f"records-{size}.jsonl", lines[:size])
    real = real_patterns()
    vocabulary = sorted({w for p in real for w in p.split(" ") if w.isalpha()})
    rng = random.Random(11)
    lines = [_record(n, *_realistic(rng, real, vocabulary), rng) for n in range(VARIANT_SIZE)]
    paths["realistic"] = _written(folder / "records-realistic.jsonl", lines)
    counts = Counter(w for p in real for w in p.split(" ") if w.isalpha())
    shared = sorted({w for w, _ in counts.most_common(SHARED_WORDS)} | set(PANIC_WORDS))
    rng = random.Random(13)
    lines = [_record(n, *_shared(rng, shared), rng) for n in range(VARIANT_SIZE)]
    paths["worst"] = _written(folder / "records-worst.jsonl", lines)
    paths["one-wording"] = _written(folder / "records-one-wording.jsonl", one_wording())
    return paths


def one_wording() -> list[str]:
    """100,000 records, one in SHARED_EVERY of them (10,000) with the panic's own wording, the rest distinct."""
    rng = random.Random(17)
    lines = []
    for n in range(VARIANT_SIZE):
        pattern, message = _distinct(n, rng)
        if n % SHARED_EVERY == 0:
            pattern = message = SHARED_WORDING
        lines.append(_record(n, pattern, message, rng))
    return lines


def _written(path: Path, lines: list[str]) -> Path:
    if not path.exists():
        path.write_text("".join(lines))
    return path


def make_log(folder: Path, megabytes: int) -> Path:
    """Noise from a long test run with 200 real panics and tracebacks spread through it."""
    path = folder / f"log-{megabytes}mb.txt"
    if path.exists():
        return path
    rng = random.Random(megabytes)
    errors = [
        (CORPUS / "rust" / "cargo-run-leaf.txt").read_text(),
        (CORPUS / "rust" / "cargo-test-three.txt").read_text(),
        (CORPUS / "python" / "json-decode.txt").read_text(),
        (CORPUS / "rust" / "cargo-run-unwrap.txt").read_text(),
    ]
    target = megabytes * 1_000_000
    every = target // PANICS_IN_BIG_LOG
    written, next_error = 0, every // 2
    with path.open("w") as out:
        while written < target:
            block = "".join(
                f"test suite::case_{rng.randint(0, 10**6)} ... ok ({rng.random():.3f}s) loss={rng.random():.5f}\n"
                for _ in range(200)
            )
            if written >= next_error:
                block += rng.choice(errors)
                next_error += every
            out.write(block)
            written += len(block)
    return path
