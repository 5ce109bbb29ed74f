"""The record schema (schemaVersion 2): every field of the seed record, its type, and checks."""

from __future__ import annotations

import re

from leafexplain.models import Problem, Record, Variant
from leafexplain.records.patterns import literal_chars, split_pattern
from leafexplain.regex import lazy_regex
from leafexplain.text import all_printable, safe_link

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: the everyday path does without it
if TYPE_CHECKING:
    from typing import Any

SCHEMA_VERSION = 2

# Field name -> the JSON types it may hold. None (null) is allowed for every optional field.
STR, INT, STR_LIST, VARIANTS, BOOL = "string", "integer", "list of strings", "list of objects", "boolean"
FIELDS: dict[str, str] = {
    "id": STR,
    "repo": STR,
    "slug": STR,
    "errorCode": STR,
    "errorMessage": STR,
    "messagePattern": STR,
    "errorType": STR,
    "errorClass": STR,
    "httpStatus": INT,
    "severity": STR,
    "filePath": STR,
    "lineNumber": INT,
    "sourceCode": STR,
    "sourceCodeStart": INT,
    "sourceCodeEnd": INT,
    "githubUrl": STR,
    "documentation": STR,
    "triggerScenarios": STR,
    "commonSituations": STR,
    "solutions": STR_LIST,
    "exampleFix": STR,
    "handlingStrategy": STR,
    "validationCode": STR,
    "typeGuard": STR,
    "tryCatchPattern": STR,
    "preventionTips": STR_LIST,
    "tags": STR_LIST,
    "backgroundTag": STR,
    "analyzedSha": STR,
    "analyzedAt": STR,
    "contentChangedAt": STR,
    "schemaVersion": INT,
    # Our extension (optional; a schemaVersion 2 record without it is valid): the other wordings
    # of the same error in other releases, each {messagePattern, versions, errorClass?, commit?,
    # filePath?, lineNumber?, githubUrl?}. See README.md, "Message history".
    "messageVariants": VARIANTS,
}
SEED_FIELDS = tuple(name for name in FIELDS if name != "messageVariants")
VARIANT_FIELDS: dict[str, str] = {
    "messagePattern": STR,
    "versions": STR,
    "errorClass": STR,
    "commit": STR,
    "filePath": STR,
    "lineNumber": INT,
    "githubUrl": STR,
    "recordCommitMissing": BOOL,
}
MAX_VARIANTS = 50
SHA_RE = lazy_regex(r"[0-9a-f]{40}\Z")
REQUIRED = ("id", "repo", "errorMessage", "messagePattern")
LIST_FIELDS = frozenset(k for k, v in FIELDS.items() if v == STR_LIST)

# Every pattern here is anchored at the true end of the string (`\Z`): `$` also matches before a
# trailing newline, and a value that ends in one would pass.
# `owner/name`, neither `.` nor `..` (it names folders), neither starting with `-`.
REPO_RE = lazy_regex(r"(?!\.+/)[A-Za-z0-9_.][A-Za-z0-9_.-]*/(?!\.+\Z)[A-Za-z0-9_.][A-Za-z0-9_.-]*\Z")
# The fields that identify a record (id, slug, each tag) are tokens: they are printed as they are,
# one a line in the completion lists and next to a command to copy (`leafexplain show ID`), so they
# hold no whitespace, control character or shell metacharacter, and do not start with `-` (which a
# command would take for an option).
TOKEN_RE = lazy_regex(r"[A-Za-z0-9_][A-Za-z0-9_.+-]{0,199}\Z")
TOKEN_RULE = "must be a token of letters, digits and . _ + - (no spaces, control characters or shell metacharacters)"
TOKEN_FIELDS = ("id", "slug", "severity")  # severity too: one word, shown in headings
MIN_LITERAL_CHARS = 4
# Control characters never belong in the fields that identify and match a record; two of them
# separate fields in the index, and ids, slugs and tags are printed as they are (shell completion).
# Neither do C1 controls or bidi overrides. A pattern may hold tabs and newlines.
_CONTROLS = r"\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029"
_CONTROL = lazy_regex(f"[{_CONTROLS}]")
# A field shown on one line (a heading, a table's cell, a `key: value` line of `show`) holds no line break of
# any kind either: a newline in `errorClass` would start a forged line of `list` at column 0.
_BREAK_OR_CONTROL = lazy_regex(f"[\\n{_CONTROLS}]")  # the controls and a newline
# (The tokens, `repo` and `githubUrl` have stricter rules of their own, below.)
ONE_LINE_FIELDS = (
    "errorCode",
    "errorType",
    "errorClass",
    "filePath",
    "handlingStrategy",
    "backgroundTag",
    "analyzedSha",
    "analyzedAt",
    "contentChangedAt",
)
ONE_LINE_VARIANT_FIELDS = ("versions", "errorClass", "filePath")
ONE_LINE_RULE = "must be one line, without line breaks or control characters"


def _not_one_line(value: Any) -> bool:
    return isinstance(value, str) and not all_printable(value, "\t") and bool(_BREAK_OR_CONTROL.search(value))


# JSON can spell a lone surrogate (`"\\ud800"`): not text, and it cannot be written out as UTF-8.
_SURROGATE = lazy_regex(r"[\ud800-\udfff]")


def _has_control(text: str) -> bool:
    return not all_printable(text, "\t\n") and bool(_CONTROL.search(text))


def _has_surrogate(text: str) -> bool:
    return not all_printable(text, "\t\n\r") and bool(_SURROGATE.search(text))


NO_CONTROL_FIELDS = ("id", "repo", "slug", "messagePattern")
MAX_FIELD_CHARS = 200_000


def slugify(message: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", message.lower()).strip("-")
    return slug[:50].rstrip("-")


def _type_ok(value: Any, kind: str) -> bool:
    if kind == STR:
        return isinstance(value, str)
    if kind == INT:
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == BOOL:
        return isinstance(value, bool)
    if kind == VARIANTS:
        return isinstance(value, list) and all(isinstance(v, dict) for v in value)
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def class_only(values: dict[str, Any]) -> bool:
    """A record for an exception class as such (`KeyError: 'x'` says nothing but the key): its pattern
    is one placeholder, and it explains an event of its class that no wording explains."""
    return bool(values.get("errorClass")) and split_pattern(values["messagePattern"].strip()) == [None]


def _variants(
    entries: list[dict[str, Any]], problem: Any, checked: bool = False
) -> tuple[tuple[Variant, ...], list[Problem]]:
    """The `messageVariants` entries, typed, and what is wrong with them (field `messageVariants[N].key`)."""
    problems: list[Problem] = []
    variants: list[Variant] = []
    if len(entries) > MAX_VARIANTS:
        return (), [problem(f"has more than {MAX_VARIANTS} entries", "messageVariants")]
    for n, entry in enumerate(entries):
        where = f"messageVariants[{n}]"
        before = len(problems)
        for key in entry:
            if key not in VARIANT_FIELDS:
                problems.append(problem(f"unknown key (expected {', '.join(VARIANT_FIELDS)})", f"{where}.{key}"))
        for key, kind in VARIANT_FIELDS.items():
            value = entry.get(key)
            if value is None:
                if key in ("messagePattern", "versions"):
                    problems.append(problem("is required", f"{where}.{key}"))
                continue
            if not _type_ok(value, kind) or (isinstance(value, str) and not value.strip()):
                problems.append(problem(f"must be a non-empty {kind}", f"{where}.{key}"))
            elif isinstance(value, str) and (len(value) > MAX_FIELD_CHARS or _has_surrogate(value)):
                problems.append(problem("is too long or not valid Unicode text", f"{where}.{key}"))
            elif isinstance(value, str) and _has_control(value):
                problems.append(problem("contains control characters", f"{where}.{key}"))
        if len(problems) > before:
            continue
        if not checked:
            problems += _variant_shape_problems(entry, where, problem)
        if len(problems) == before:
            variants.append(Variant(**{key: entry[key] for key in VARIANT_FIELDS if entry.get(key) is not None}))
    return tuple(variants), problems


def _variant_shape_problems(entry: dict[str, Any], where: str, problem: Any) -> list[Problem]:
    found = [
        problem(ONE_LINE_RULE, f"{where}.{name}") for name in ONE_LINE_VARIANT_FIELDS if _not_one_line(entry.get(name))
    ]
    if literal_chars(entry["messagePattern"]) < MIN_LITERAL_CHARS:
        found.append(problem(f"has fewer than {MIN_LITERAL_CHARS} literal characters", f"{where}.messagePattern"))
    if entry.get("commit") is not None and not SHA_RE.match(entry["commit"]):
        found.append(problem("must be a full 40-hex commit", f"{where}.commit"))
    if entry.get("githubUrl") is not None and safe_link(entry["githubUrl"]) is None:
        found.append(problem("must be an https:// link without credentials", f"{where}.githubUrl"))
    return found


def validate_record(
    data: Any, path: str, line: int | None = None, dataset_version: str | None = None, *, checked: bool = False
) -> tuple[Record | None, list[Problem]]:
    """Check one record object; return the typed Record (None when invalid) and the problems.

    `checked`: these are the very bytes an earlier check passed (the record index keeps their CRC-32): the
    types are checked as the Record is built, not the shapes (tokens, links, patterns), whose regexes cost a
    run more than the rest of reading the record.
    """

    def problem(message: str, field: str | None = None) -> Problem:
        return Problem(path=path, line=line, field=field, message=message)

    if not isinstance(data, dict):
        return None, [problem(f"expected a record object, found {type(data).__name__}")]
    problems: list[Problem] = []
    for name in REQUIRED:
        value = data.get(name)
        if value is None or (isinstance(value, str) and not value.strip()):
            problems.append(problem("is required and must not be empty", name))
    values: dict[str, Any] = {}
    for name, kind in FIELDS.items():
        value = data.get(name)
        if value is None:
            continue
        if not _type_ok(value, kind):
            problems.append(problem(f"must be a {kind}, found {type(value).__name__}", name))
            continue
        if isinstance(value, str) and len(value) > MAX_FIELD_CHARS:
            problems.append(problem(f"is longer than {MAX_FIELD_CHARS} characters", name))
            continue
        texts = [value] if isinstance(value, str) else value if name in LIST_FIELDS else []
        if any(_has_surrogate(text) for text in texts):
            problems.append(problem("holds a lone surrogate (\\ud800-\\udfff): not valid Unicode text", name))
            continue
        if kind == VARIANTS:
            variants, found = _variants(value, problem, checked)
            problems.extend(found)
            values[name] = variants
            continue
        values[name] = tuple(value) if name in LIST_FIELDS else value
    if problems:
        return None, problems
    if not checked:
        problems = _shape_problems(values, problem)
        if _not_one_line(dataset_version):  # the wrapper's, shown as a line of `show`
            problems.append(problem(ONE_LINE_RULE, "datasetVersion"))
        if problems:
            return None, problems
    values.setdefault("slug", "")
    if not values["slug"]:
        values["slug"] = slugify(values["errorMessage"])
    return Record(**values, datasetVersion=dataset_version, origin=f"{path}:{line}" if line else path), []


def _shape_problems(values: dict[str, Any], problem: Any) -> list[Problem]:
    """What is wrong with the shapes of a record's typed values: tokens, the repository, the link, the pattern."""
    problems: list[Problem] = []
    for name in NO_CONTROL_FIELDS:
        if isinstance(values.get(name), str) and _has_control(values[name]):
            problems.append(problem("contains control characters", name))
    problems += [problem(ONE_LINE_RULE, name) for name in ONE_LINE_FIELDS if _not_one_line(values.get(name))]
    for name in TOKEN_FIELDS:
        if isinstance(values.get(name), str) and values[name] and not TOKEN_RE.match(values[name]):
            problems.append(problem(TOKEN_RULE, name))
    if any(_has_control(tag) or not tag.strip() for tag in values.get("tags", ())):
        problems.append(problem("has an empty tag or one with control characters", "tags"))
    elif not all(TOKEN_RE.match(tag) for tag in values.get("tags", ())):
        problems.append(problem(f"each tag {TOKEN_RULE}", "tags"))
    if not REPO_RE.match(values["repo"]):
        problems.append(problem("must look like 'owner/name' (letters, digits, . _ -)", "repo"))
    version = values.get("schemaVersion", SCHEMA_VERSION)
    if version != SCHEMA_VERSION:
        problems.append(problem(f"is {version}; this leafexplain reads schemaVersion 2", "schemaVersion"))
    url = values.get("githubUrl")
    if url and safe_link(url) is None:
        problems.append(problem("must be an https:// link without credentials", "githubUrl"))
    if literal_chars(values["messagePattern"]) < MIN_LITERAL_CHARS and not class_only(values):
        problems.append(
            problem(
                f"has fewer than {MIN_LITERAL_CHARS} literal characters: it would match any message",
                "messagePattern",
            )
        )
    return problems
