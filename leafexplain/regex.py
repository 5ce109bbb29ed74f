"""Regexes compiled at their first use, and, in a command's own process, from their compiled code kept on disk.

Compiling is most of a regex's cost (Python's parser and compiler, 0.05 to 0.5 ms each), and
every run pays for every `re.compile` at module level, the Python extractors' for a Rust panic
included. `lazy_regex` stands in for the compiled pattern: the first call of one of its methods
compiles it and puts the compiled pattern's bound methods in its place, so that later calls cost
what calls on a compiled pattern do.

A run still compiles the twenty-odd it uses (a panic's extraction, the record's wording, the
view's text fitting): 1 to 4 ms, a tenth of an explanation. So the command line keeps each
pattern's compiled code (what `re` hands the regex engine, `_sre.compile`) in the cache folder,
and later runs build the pattern from it in microseconds (`keep_codes_in`, `save_codes`). The
code belongs to one interpreter: the file is named by its version and the engine's magic number,
sealed by a checksum, and read only by CPython 3.11 and later, whose `re` internals it relies on;
anywhere else, and for a pattern not in the file, `re.compile` does the work as always. The
engine validates every code it is given, so a damaged entry is an error caught here, never a
crash. Tests and programs that import leafexplain never touch the file: they compile as `re` does.
"""

from __future__ import annotations

import re
import sys

_METHODS = ("search", "match", "fullmatch", "sub", "subn", "finditer", "findall", "split")

# The file of compiled codes: its path (None: compile as `re` does), what it held, what this run added.
_store: str | None = None
_codes: dict[tuple[str | bytes, int], tuple[object, ...]] = {}
_added: dict[tuple[str | bytes, int], tuple[object, ...]] = {}
MAX_KEPT = 4000  # patterns in the file; past it, it starts again (a user's records can name many)
MAX_FILE_BYTES = 16 << 20
_MAGIC = b"LEAFEXPLAIN-REGEX/1\n"


def compiled(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """`re.compile(pattern, flags)`; from its kept code when there is one."""
    if _store is None or flags & re.DEBUG:
        return re.compile(pattern, flags)
    key = (pattern, int(flags))  # re.S and the like are RegexFlag, an int subclass marshal refuses
    entry = _codes.get(key) or _added.get(key)
    if entry is not None:
        try:
            return _engine().compile(pattern, *entry)  # type: ignore[attr-defined,no-any-return]
        except (TypeError, ValueError, RuntimeError, OverflowError):  # not this engine's code: compiled anew
            _codes.pop(key, None)
    made = re.compile(pattern, flags)
    code = _code_of(pattern, flags)
    if code is not None:
        _added[key] = code
    return made


def _engine() -> object:
    import _sre  # a built-in module: no file to load

    return _sre


def _code_of(pattern: str | bytes, flags: int) -> tuple[object, ...] | None:
    """What `re._compiler.compile` hands `_sre.compile` after the pattern (CPython 3.11 and later); None where
    re's internals are not what they were (they are no interface): the pattern is compiled each run, as before."""
    try:
        from re import _compiler, _parser  # type: ignore[attr-defined]

        parsed = _parser.parse(pattern, flags)
        groups = dict(parsed.state.groupdict)
        names: list[str | None] = [None] * parsed.state.groups
        for name, number in groups.items():
            names[number] = name
        code = [int(op) for op in _compiler._code(parsed, flags)]  # its opcodes are int subclasses: marshal refuses
        return (int(flags | parsed.state.flags), code, parsed.state.groups - 1, groups, tuple(names))
    except (AttributeError, ImportError, TypeError, ValueError, re.error):
        return None


def keep_codes_in(folder: str) -> None:
    """From now on, compile from the codes kept in `folder` (this interpreter's file there), where it can."""
    global _store, _codes
    if sys.implementation.name != "cpython" or sys.version_info < (3, 11):
        return
    import marshal
    import zlib

    from leafexplain.safeio import read_regular

    version = "-".join(map(str, sys.version_info[:3]))
    _store = f"{folder}/regex-{version}-{_engine().MAGIC}.marshal"  # type: ignore[attr-defined]
    try:
        data = read_regular(_store, MAX_FILE_BYTES, follow=False)  # never through a symlink, as the index
    except (OSError, ValueError):  # none yet, or unreadable: this run's patterns make one
        return
    body = data[len(_MAGIC) + 4 :]
    if not data.startswith(_MAGIC) or zlib.crc32(body) != int.from_bytes(data[len(_MAGIC) : len(_MAGIC) + 4], "little"):
        return  # not ours, or damaged: written anew
    try:
        codes = marshal.loads(body)
    except (ValueError, EOFError, TypeError):
        return
    if isinstance(codes, dict):
        _codes = codes


def save_codes() -> None:
    """Write the file again when this run compiled patterns it did not hold (whole or not at all)."""
    if _store is None or not _added:
        return
    import marshal
    import os
    import zlib

    from leafexplain.safeio import write_whole

    kept = {**_codes, **_added} if len(_codes) + len(_added) <= MAX_KEPT else dict(_added)
    try:
        body = marshal.dumps(kept)
        os.makedirs(os.path.dirname(_store), exist_ok=True)
        write_whole(_store, _MAGIC + zlib.crc32(body).to_bytes(4, "little") + body, replace=True)
    except (OSError, ValueError):  # a read-only or full cache: the next run compiles again
        return
    _codes.update(_added)
    _added.clear()


def stop_keeping_codes() -> None:
    """Compile as `re` does again, and forget the codes read (what `keep_codes_in` undoes, for a test)."""
    global _store, _codes
    _store, _codes = None, {}
    _added.clear()


class _LazyRegex:
    def __init__(self, pattern: str, flags: int) -> None:
        self.pattern, self.flags = pattern, flags

    def __getattr__(self, name: str) -> object:  # only for what the instance does not hold yet
        made = compiled(self.pattern, self.flags)
        for method in _METHODS:
            setattr(self, method, getattr(made, method))
        return getattr(made, name)

    def __repr__(self) -> str:
        return f"lazy_regex({self.pattern!r})"


def lazy_regex(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """`re.compile(pattern, flags)`, done when the pattern is first used."""
    return _LazyRegex(pattern, flags)  # type: ignore[return-value]


# One alternative of a pattern: the substring it cannot match without, and the regex for the rest (None: the
# substring says it all).
Alternative = tuple[str, "re.Pattern[str] | None"]


def search_alternatives(text: str, alternatives: tuple[Alternative, ...]) -> bool:
    """`a|b|c` found in the text, asked alternative by alternative: each regex is compiled only when its
    substring is there, and a small regex compiles several times faster than the whole alternation."""
    return any(part in text and (regex is None or regex.search(text)) for part, regex in alternatives)
