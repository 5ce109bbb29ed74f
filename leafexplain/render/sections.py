"""The long view's sections of a record, in the order a person reads them: what it means, how to fix it,
where it is raised (with what this machine has of it), and, with `--full`, everything else it holds.

Each section is made of blocks that hold no width or colour; every format writes them its own way.
"""

from __future__ import annotations

from leafexplain.libraries import norm_path
from leafexplain.models import CachedSnippet, ErrorEvent, LibrarySource, Raised, Record, Snippet
from leafexplain.named import NamedTuple
from leafexplain.render.fitting import safe
from leafexplain.text import safe_link

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: the default view is everyday start-up
if TYPE_CHECKING:
    from typing import Literal

    BlockKind = Literal["text", "bullets", "numbered", "code", "snippet", "link"]
MAX_ITEMS = 50  # a giant list (solutions, tips, tags) is cut, with a note
REFUSED_LINK = "(link not shown: only https:// links without credentials are)"


class Block(NamedTuple):
    """A piece of a section: text, a list, code, a numbered snippet of a file, or a link."""

    kind: BlockKind
    text: str = ""
    items: tuple[str, ...] = ()
    language: str = "text"
    first_line: int = 1
    highlight_line: int | None = None


def snippet_lines(block: Block, indent: str) -> list[str]:
    """A snippet block as text: each line numbered, the block's line marked with `>`."""
    lines = block.text.split("\n")
    last = block.first_line + len(lines) - 1
    digits = len(str(last))
    out = []
    for n, line in enumerate(lines, start=block.first_line):
        mark = ">" if n == block.highlight_line else " "
        out.append(f"{indent}{mark} {n:>{digits}} | {line}".rstrip())
    return out


class Section(NamedTuple):
    """A titled part of the long view (`What it means`, `How to fix it`, ...)."""

    title: str
    blocks: tuple[Block, ...]


def _text_section(title: str, value: str | None) -> list[Section]:
    return [Section(title, (Block("text", safe(value)),))] if value and value.strip() else []


def _bounded_items(items: tuple[str, ...], limit: int = 1000) -> tuple[str, ...]:
    present = [i for i in items if i and i.strip()]
    kept = tuple(safe(i, limit) for i in present[:MAX_ITEMS])
    more = len(present) - MAX_ITEMS
    return (*kept, f"[… {more} more not shown]") if more > 0 else kept


def _list_section(title: str, items: tuple[str, ...], kind: BlockKind) -> list[Section]:
    kept = _bounded_items(items)
    return [Section(title, (Block(kind, items=kept),))] if kept else []


def _link(url: str | None) -> Block:
    """A link only to what validation accepts: anything else (javascript:, file:, credentials) is named, not shown."""
    link = safe_link(url)
    return Block("link", link) if link else Block("text", REFUSED_LINK)


def _code_section(title: str, code: str | None, language: str) -> list[Section]:
    return [Section(title, (Block("code", safe(code, 8000), language=language),))] if code and code.strip() else []


SNIPPET_CONTEXT = 6  # lines either side of the raising line, when explaining


def _snippet(record: Record, context: int | None) -> Block:
    lines = safe(record.sourceCode, 8000).split("\n")
    first = record.sourceCodeStart or 1
    line = record.lineNumber
    if context is not None and line is not None and first <= line < first + len(lines):
        start = max(line - context, first)
        lines = lines[start - first : line - first + context + 1]
        first = start
    return Block("snippet", "\n".join(lines), language=record.code_language, first_line=first, highlight_line=line)


def _local_snippet(lines: tuple[str, ...], start: int, line: int | None, language: str) -> Block:
    text = "\n".join(safe(line_text, 1000) for line_text in lines)
    return Block("snippet", text, language=language, first_line=start, highlight_line=line)


def user_code_section(snippet: Snippet) -> Section:
    """The user's own code around the frame's line, read from this machine."""
    blocks = [Block("text", f"{safe(snippet.path, 500)}:{snippet.line}")]
    if snippet.lines:  # none when the file does not hold the traceback's line: the note says so
        blocks.append(_local_snippet(snippet.lines, snippet.start, snippet.line, snippet.language))
    if snippet.note:
        blocks.append(Block("text", safe(snippet.note, 1000)))
    return Section("Your code", tuple(blocks))


def raised_library(raised: Raised) -> str:
    """The library and its version: `torch 2.13.0+cpu`."""
    return " ".join(safe(p, 200) for p in (raised.library, raised.version) if p)


def raised_where(raised: Raised) -> str:
    """Where in the library: `…/torch/_tensor.py:691 in register_hook`."""
    where = safe(raised.path, 500) if raised.path else "its file is not on this machine"
    if raised.path and raised.line:
        where += f":{raised.line}"
    if raised.function:
        where += f" in {safe(raised.function, 200)}"
    return where


def raised_place(raised: Raised) -> str:
    """The library, its version, and where in it: `torch 2.13.0+cpu, …/_tensor.py:691 in register_hook`."""
    return ", ".join(part for part in (raised_library(raised), raised_where(raised)) if part)


def raised_sections(raised: Raised) -> list[Section]:
    """Where a library raised an error no record explains, read here: the place, its lines, the condition that
    guards them, the function's docstring and the link; a search of the library's issues; how to add a record."""
    blocks = [Block("text", raised_place(raised))]
    if raised.changed:
        blocks.append(Block("text", "The file changed since the run: its line no longer holds the frame's code."))
    if raised.lines:
        blocks.append(_local_snippet(raised.lines, raised.start, raised.line, raised.language))
    if raised.condition:
        blocks.append(Block("text", f"Raised when: {safe(raised.condition, 500)}"))
    if raised.docstring:
        blocks.append(Block("text", f"{safe(raised.function or 'The function', 200)}: {safe(raised.docstring, 1000)}"))
    if raised.url:
        blocks.append(_link(raised.url))
    if raised.url_note:
        blocks.append(Block("text", safe(raised.url_note, 500)))
    if raised.docs_url:
        blocks.append(_link(raised.docs_url))
    out = [Section("Where the library raised it", tuple(blocks))]
    if raised.issues_url:
        out.append(Section("Its issues, searched for this message", (_link(raised.issues_url),)))
    if raised.new_command:
        out += _code_section("Add a record for it", raised.new_command, "shell")
    return out


def installed_section(source: LibrarySource) -> Section:
    """The record's file as installed here: path, version, the message's lines, and how it drifted."""
    where = safe(source.path, 500) + (f":{source.line}" if source.line else "")
    blocks = [Block("text", where + (f" · {safe(source.version, 200)}" if source.version else ""))]
    if source.lines:
        blocks.append(_local_snippet(source.lines, source.start, source.line, source.language))
    blocks.append(Block("text", safe(source.note, 1000)))
    if source.url:
        blocks.append(_link(source.url))
    return Section("Library source (installed)", tuple(blocks))


def cached_blocks(cached: CachedSnippet) -> list[Block]:
    """The record's lines from the source cache, marked with the commit they came from."""
    note = f"At commit {safe(cached.commit[:10], 64)}, from the source cache (`leafexplain update`):"
    return [Block("text", note), _local_snippet(cached.lines, cached.start, cached.line, cached.language)]


def same_file(a: str, b: str) -> bool:
    """Two paths to one library file, as a frame and a record name it (`…/burn-autodiff-0.20.1/src/tensor.rs`
    and `crates/burn-autodiff/src/tensor.rs`): the file and its folder agree."""
    return norm_path(a).split("/")[-2:] == norm_path(b).split("/")[-2:]


def other_line(record: Record, event: ErrorEvent | None) -> int | None:
    """The line of the record's file where the run raised the error, when it is not the record's line:
    another release of the library (said, or the two places shown look like a mistake)."""
    location = event.location if event else None
    if not (location and location.line and record.lineNumber and record.filePath):
        return None
    if location.line == record.lineNumber or not same_file(location.file, record.filePath):
        return None
    return location.line


def record_sections(
    record: Record,
    *,
    full: bool,
    snippet_context: int | None = SNIPPET_CONTEXT,
    installed: LibrarySource | None = None,
    event: ErrorEvent | None = None,
    cached: CachedSnippet | None = None,
) -> tuple[Section, ...]:
    """The explanation of a record, in the order a user reads it; `full` adds the code aids."""
    sections: list[Section] = []
    sections += _text_section("What it means", record.documentation)
    sections += _text_section("What triggers it", record.triggerScenarios)
    sections += _text_section("Common situations", record.commonSituations)
    sections += _list_section("How to fix it", record.solutions, "numbered")
    sections += _code_section("Example fix", record.exampleFix, record.code_language)
    source: list[Block] = []
    if record.filePath:
        where = safe(record.filePath, 500) + (f":{record.lineNumber}" if record.lineNumber else "")
        source.append(Block("text", f"{safe(record.repo, 200)} · {where}"))
        moved = other_line(record, event)
        if moved is not None:
            source.append(Block("text", f"Your run raised it at line {moved} of this file: another version of it."))
    link = record.working_url
    if record.sourceCode and record.sourceCode.strip() and not (cached is not None and cached.replaces(record)):
        source.append(_snippet(record, snippet_context))
    elif cached is not None:
        source.extend(cached_blocks(cached))
        if cached.commit not in (link or ""):  # the record's own commit was not found: link the lines shown
            link = cached.url
    if link:
        source.append(_link(link))
    place = record.release_place
    if place is not None:  # the link above is the release's; the record's own is kept, said to lead nowhere
        line = f":{place.lineNumber}" if place.lineNumber else ""
        source.append(Block("text", f"At {safe(place.versions, 300)}: {safe(place.filePath or '', 300)}{line}"))
        if record.githubUrl and record.githubUrl != link:
            own = safe(record.githubUrl, 500)
            source.append(Block("text", f"The record's analysed commit is not in the repository's history: {own}"))
    if source:
        sections.append(Section("Where it is raised", tuple(source)))
    if installed is not None:
        sections.append(installed_section(installed))
    sections += _list_section("Prevention tips", record.preventionTips, "bullets")
    if record.tags:
        sections.append(Section("Tags", (Block("text", ", ".join(_bounded_items(record.tags, 100))),)))
    if full:
        sections += _text_section("Handling strategy", record.handlingStrategy)
        sections += _code_section("Validation code", record.validationCode, record.code_language)
        sections += _code_section("Type guard", record.typeGuard, record.code_language)
        sections += _code_section("Try/catch pattern", record.tryCatchPattern, record.code_language)
        sections += _variants_section(record)
        sections.append(_about_section(record))
    return tuple(sections)


def _variants_section(record: Record) -> list[Section]:
    """The record's other wordings (`messageVariants`): each with its releases, and where it is raised."""
    items = []
    for variant in record.messageVariants[:MAX_ITEMS]:
        item = f"{safe(variant.versions, 500)}: {safe(variant.messagePattern, 1000)}"
        if variant.errorClass:
            item += f" ({safe(variant.errorClass, 200)})"
        if variant.filePath:
            item += f" · {safe(variant.filePath, 500)}" + (f":{variant.lineNumber}" if variant.lineNumber else "")
        if variant.commit:
            item += f" at {safe(variant.commit, 64)}"
        if variant.recordCommitMissing:
            item += " (the record's own commit is not in the history: this is where the message is)"
        link = safe_link(variant.githubUrl)
        items.append(item + (f" · {link}" if link else ""))
    return [Section("Other wordings", (Block("bullets", items=tuple(items)),))] if items else []


def _about_section(record: Record) -> Section:
    """Every other fact the record holds: how it is identified, matched, and when it was written."""
    facts = [
        ("id", record.id),
        ("slug", record.slug),
        ("error type", record.errorType),
        ("error class", record.errorClass),
        ("error code", record.errorCode),
        ("HTTP status", None if record.httpStatus is None else str(record.httpStatus)),
        ("severity", record.severity),
        ("message", record.errorMessage),
        ("pattern", record.messagePattern),
        ("background", record.backgroundTag),
        ("analysed at", record.analyzedSha),
        ("analysed on", record.analyzedAt),
        ("content changed", record.contentChangedAt),
        ("schema version", str(record.schemaVersion)),
        ("dataset version", record.datasetVersion),
    ]
    items = tuple(f"{key}: {safe(value, 1000)}" for key, value in facts if value)
    return Section("About this record", (Block("bullets", items=items),))
