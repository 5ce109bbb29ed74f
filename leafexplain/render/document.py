"""The long view (`--full`, `show`): everything to say of an event or a record, a heading, facts and sections.

A View holds no width or colour; every format writes it in its own way. The sections of a record
are `render/sections.py`'s; the default view, one screen per error, is `render/brief.py`'s.
"""

from __future__ import annotations

from collections.abc import Sequence

from leafexplain.models import ErrorEvent, Finding, Frame, Located, Record, Report
from leafexplain.named import NamedTuple
from leafexplain.render.fitting import safe
from leafexplain.render.naming import match_words, near_words
from leafexplain.render.sections import (
    SNIPPET_CONTEXT,
    Block,
    Section,
    raised_sections,
    record_sections,
    user_code_section,
)
from leafexplain.text import safe_link

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: the default view is everyday start-up
if TYPE_CHECKING:
    from leafexplain.render.style import Style


class View(NamedTuple):
    """One event (or one record, for `show`): a heading, the message, facts, then sections."""

    heading: str
    message: str
    span: tuple[int, int] | None
    facts: tuple[tuple[str, str], ...]
    sections: tuple[Section, ...]
    explained: bool
    url: str | None = None


def format_frame(frame: Frame) -> str:
    where = safe(frame.file, 500)
    if frame.line is not None:
        where += f":{frame.line}"
        if frame.column is not None:
            where += f":{frame.column}"
    if frame.function:
        where += f" in {safe(frame.function, 200)}"
    return where


def _heading(parts: list[str | None]) -> str:
    # One line, whatever a record's severity holds: a newline in it would print a line of its own.
    return " · ".join(" ".join(safe(p, 200).split()) for p in parts if p)


def _event_facts(event: ErrorEvent) -> list[tuple[str, str]]:
    facts: list[tuple[str, str]] = []
    if event.code:
        facts.append(("code", safe(event.code, 20)))
    if event.user_frame:
        facts.append(("your code", format_frame(event.user_frame)))
    if event.location and event.location != event.user_frame:
        facts.append(("raised at", format_frame(event.location)))
    if event.test:
        facts.append(("test", safe(event.test, 300)))
    if event.thread and event.thread not in ("main", event.test):
        facts.append(("thread", safe(event.thread, 300)))
    if event.count > 1:
        facts.append(("seen", f"{event.count} times"))
    if event.chained:
        facts.append(("chained", f"the {event.chained} of the next exception"))
    if event.report:
        facts.append(("report", safe(event.report, 300)))
    return facts


def event_view(
    finding: Finding, *, full: bool, show_all: bool, sources: Located | None = None, verbose: bool = False
) -> View:
    """One event; `sources` (what `locate.find_sources` found) adds the user's code and the installed library."""
    event = finding.event
    best = finding.best
    facts = _event_facts(event)
    mine = [user_code_section(sources.user)] if sources and sources.user else []
    mine += compiler_sections(event, sources)
    if best is None:
        near = tuple(near_words(c, verbose=verbose) for c in finding.near)
        raised = raised_sections(sources.raised) if sources and sources.raised and sources.raised.library else []
        sections = [
            *mine,
            *raised,
            Section(
                "No record matches this error",
                (Block("text", "Nearest records, below the cut-off:"), Block("bullets", items=near))
                if near
                else (Block("text", "No record comes close."),),
            ),
        ]
        return View(
            _heading([event.error_type or "error", event.language if event.language != "unknown" else None]),
            safe(event.message, keep_tabs=True),
            None,
            tuple(facts),
            tuple(sections),
            explained=False,
        )
    record = best.record
    facts.append(("matched", match_words(best, verbose=verbose)))
    installed = sources.library[0] if sources and sources.library else None
    cached = sources.cached[0] if sources and sources.cached else None
    context = None if full else SNIPPET_CONTEXT
    sections = [
        *mine,
        *record_sections(record, full=full, snippet_context=context, installed=installed, cached=cached, event=event),
    ]
    others = finding.matches[1:]
    if others and show_all:
        items = tuple(match_words(c, verbose=verbose) for c in others)
        sections.append(Section("Other candidates", (Block("bullets", items=items),)))
    heading = _heading([event.error_type or record.errorClass or record.errorType, record.repo, record.severity])
    message = safe(event.message, keep_tabs=True)
    return View(
        heading,
        message,
        _within(best.span, len(message)),
        tuple(facts),
        tuple(sections),
        explained=True,
        url=safe_link(record.working_url),
    )


def compiler_sections(event: ErrorEvent, sources: Located | None) -> list[Section]:
    """What the compiler said under a compile error's header (its labels, notes and help), and, for a code no
    record explains, what `rustc --explain` says of it and the error index's page."""
    out = []
    if event.detail:
        title = "What rustc says" if event.error_type == "compile" else "Detail"
        out.append(Section(title, (Block("bullets", items=tuple(safe(line, 500) for line in event.detail)),)))
    explanation = sources.explanation if sources else None
    if explanation is not None:
        text = explanation.text
        link = safe_link(explanation.url)
        blocks = ((Block("text", safe(text, 1000)),) if text else ()) + ((Block("link", link),) if link else ())
        out.append(Section(f"rustc --explain {safe(explanation.code, 20)}", blocks))
    return out


def _within(span: tuple[int, int] | None, length: int) -> tuple[int, int] | None:
    """The matched span, inside the message as shown (a message cut for length ends sooner)."""
    if span is None or span[0] >= length:
        return None
    return (max(span[0], 0), min(span[1], length))


def event_views(
    findings: Sequence[Finding],
    *,
    full: bool,
    show_all: bool,
    sources: Sequence[Located] | None = None,
    verbose: bool = False,
) -> list[View]:
    """A view per event; `sources` lines up with `findings` (None: nothing looked up, the output of before)."""
    found = list(sources) if sources is not None else [None] * len(findings)
    return [
        event_view(f, full=full, show_all=show_all, sources=s, verbose=verbose)
        for f, s in zip(findings, found, strict=True)
    ]


def report_views(report: Report, style: Style) -> list[View]:
    return event_views(
        report.findings, full=style.full, show_all=style.show_all, sources=report.located, verbose=style.verbose
    )


def record_view(record: Record) -> View:
    """`show`: a record in full, with its own message as the example."""
    facts = [("id", safe(record.id, 200)), ("slug", safe(record.slug, 200))]
    if record.analyzedSha:
        facts.append(("analysed at", safe(record.analyzedSha, 64)))
    heading = _heading([record.errorClass or record.errorType, record.repo, record.severity])
    return View(
        heading,
        safe(record.errorMessage),
        None,
        tuple(facts),
        record_sections(record, full=True, snippet_context=None),
        explained=True,
        url=safe_link(record.working_url),
    )
