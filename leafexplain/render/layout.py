"""The default view laid out for a terminal: each error in one screen of rows at the given width.

Shared by the terminal and plain formats. Rows are counted as the terminal will show them. The
parts every card has come first (the header, the message, your line, why, the first fix and the
link); then the parts in PRIORITIES are grown, in its order, while the screen has room. Text is
fitted by `render/fitting.py`: prose wraps between words, code is cropped, never wrapped. A link is
never cut: a terminal that shows OSC 8 hyperlinks gets the place as a link, any other the whole
URL on a row of its own.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from leafexplain.models import Report
from leafexplain.named import NamedTuple
from leafexplain.render.brief import Brief, CodeLine, ExampleLine, Explanation, RaisedLines, briefs, count_line
from leafexplain.render.fitting import (
    CUT,
    cells,
    chars_within,
    code_only,
    crop_code,
    prose,
    split_sentences,
    wrap_ranges,
)
from leafexplain.render.naming import match_words_within

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: the default view is everyday start-up
if TYPE_CHECKING:
    from leafexplain.render import Style

SCREEN_ROWS = 22  # a 24-row terminal, less the command line above and the prompt below
MESSAGE_ROWS = 4
MATCHED_ROWS = 2
WHY_ROWS = 3
FIX_ROWS = 3
MIN_EXAMPLE_LINES = 2
COMFORTABLE_EXAMPLE_LINES = 5  # an example this long comes before a third fix
ALL = 1_000_000  # as much of a part as there is
INDENT = "  "
GUTTER = 11  # labels (`matched:`, `why:`, `before:`) in a column of their own, text beside them

# What a card shows beyond its required parts, in the order it is given room: a part and how much of it.
# A part appears at its first step, at that size, or not at all (an example one line longer is shown whole:
# the note `… 1 more line` would take that row); at a later step, a part shown grows a line or a fix at a
# time while it fits.
PRIORITIES: tuple[tuple[str, int], ...] = (
    ("fixes", 2),
    ("example", MIN_EXAMPLE_LINES),
    ("context", 1),  # the lines around yours
    ("example", COMFORTABLE_EXAMPLE_LINES),
    ("fixes", 3),
    ("example", ALL),
)


class Segment(NamedTuple):
    """A piece of a row and what it is: the terminal format styles it by `role` (and highlights code in
    `language`), plain writes the text alone."""

    text: str
    role: str = "text"  # heading, unknown, message, span, label, before, after, example, text, dim, path, code,
    # marked, link, count
    language: str = ""
    target: str = ""  # a link's URL (its text may be the place it leads to)


Line = tuple[Segment, ...]


def rows(line: Line, width: int) -> int:
    """Rows the terminal needs for `line` (it wraps what is wider than the screen)."""
    return max(1, math.ceil(cells("".join(s.text for s in line)) / max(width, 1)))


def total_rows(lines: list[Line], width: int) -> int:
    return sum(rows(line, width) for line in lines)


def code_segments(text: str, room: int, language: str, role: str = "code") -> tuple[Segment, ...]:
    """A code line cropped to `room`, the `…` that marks a cut apart from the code (it is not code)."""
    cropped = crop_code(text, room)
    if cropped == text:
        return (Segment(text, role, language),)
    return (Segment(cropped[: -len(CUT) - 1], role, language), Segment(" " + CUT, "dim"))


def _label(label: str) -> str:
    return (INDENT + label + (":" if label else "")).ljust(GUTTER)


def labelled(label: str, rows_text: list[Line]) -> list[Line]:
    """Rows beside a label in the gutter: the label on the first, blanks under it."""
    out = []
    for n, row in enumerate(rows_text):
        gutter = _label(label) if n == 0 else " " * GUTTER
        out.append((Segment(gutter, "label" if n == 0 else "text"), *row))
    return out


def _text_rows(label: str, text: str, width: int, max_rows: int | None, role: str = "text") -> list[Line]:
    return labelled(label, [(Segment(row, role),) for row in prose(text, width - GUTTER, max_rows)])


def _message(brief: Brief, width: int) -> list[Line]:
    """The message under the heading, the matched part marked, at most MESSAGE_ROWS rows."""
    if not brief.message.strip():  # `AssertionError` alone: no empty row under the heading
        return []
    out: list[Line] = []
    offset = 0
    span = brief.span or (0, 0)
    first_marked = None  # the row where the matched part starts
    message = brief.message.replace("\t", " ")  # a tab's width is the terminal's to choose: one space, offsets kept
    for paragraph in message.split("\n"):
        for a, b in wrap_ranges(paragraph, width - len(INDENT)):
            start, end = offset + a, offset + b
            if first_marked is None and span[1] > span[0] and end > span[0]:
                first_marked = len(out)
            pieces = [(start, min(end, max(start, span[0])), "message")]
            pieces.append((max(start, span[0]), min(end, span[1]), "span"))
            pieces.append((max(start, span[1]), end, "message"))
            text = message
            out.append((Segment(INDENT), *(Segment(text[x:y], role) for x, y, role in pieces if y > x)))
        offset += len(paragraph) + 1
    if len(out) <= MESSAGE_ROWS:
        return out
    if first_marked is not None and first_marked >= MESSAGE_ROWS - 1:
        # The part that matched is far down a long message (a tensor's values printed first): it is shown,
        # between notes of the rows left out above and below.
        shown = out[first_marked : first_marked + MESSAGE_ROWS - 2]
        below = len(out) - first_marked - len(shown)
        above_note = (Segment(INDENT + f"{CUT} {first_marked} rows of the message above", "dim"),)
        below_note = [(Segment(INDENT + f"{CUT} {below} more rows of the message", "dim"),)] if below else []
        return [above_note, *shown, *below_note]
    hidden = len(out) - MESSAGE_ROWS + 1
    return [*out[: MESSAGE_ROWS - 1], (Segment(INDENT + f"{CUT} {hidden} more rows of the message", "dim"),)]


def _code(brief: Brief, width: int, marked_only: bool) -> list[Line]:
    """The user's line (and, with room, one either side), numbered, the line itself marked with `>`."""
    code = [c for c in brief.code if c.marked] if marked_only else list(brief.code)
    return _numbered(code, brief.code_language, width)


def _numbered(shown: list[CodeLine], language: str, width: int) -> list[Line]:
    """Lines of code numbered, the frame's own marked with `>`."""
    digits = max((len(str(c.number)) for c in shown if c.number is not None), default=0)
    out: list[Line] = []
    for line in shown:
        number = str(line.number).rjust(digits) if line.number is not None else " " * digits
        gutter = " " * (GUTTER - 2) + ("> " if line.marked else "  ")
        prefix = f"{gutter}{number} | " if digits else gutter
        role = "marked" if line.marked else "code"
        out.append((Segment(prefix, "dim"), *code_segments(line.text, width - len(prefix), language, role)))
    return out


def _where(brief: Brief, width: int) -> list[Line]:
    """Your frame (`at`), and the test or thread it ran in; `in` alone when the frames name no code of yours."""
    context = list(brief.context)
    where = brief.where
    said = " · ".join([w for w in [where] if w] + context)
    if where and len(prose(said, width - GUTTER)) > 2:
        # A long path loses its middle, never its end: the file's name and line are what a person looks for.
        room = 2 * (width - GUTTER) - cells(" · ".join(["", *context])) - 8
        keep = chars_within(where[::-1], 0, max(room, 20))
        said = " · ".join([CUT + where[len(where) - keep :], *context])
    return _text_rows("at" if where else "in", said, width, 2, "path") if said else []


def _matched(explanation: Explanation, width: int) -> list[Line]:
    room = width - GUTTER
    said = match_words_within(explanation.candidate, room, verbose=explanation.verbose)
    return _text_rows("matched", said, width, MATCHED_ROWS + explanation.verbose)


def _why(text: str, width: int) -> list[Line]:
    """Whole sentences that fit in WHY_ROWS rows; the first one cut short only when it alone does not fit."""
    taken: list[str] = []
    for sentence in split_sentences(text):
        if len(prose(" ".join([*taken, sentence]), width - GUTTER)) > WHY_ROWS:
            break
        taken.append(sentence)
    return _text_rows("why", " ".join(taken) if taken else text, width, WHY_ROWS)


def _fixes(fixes: tuple[str, ...], width: int) -> list[list[Line]]:
    """Each fix as rows of its own, numbered, beside the `fix` label on the first."""
    out = []
    for n, fix in enumerate(fixes, start=1):
        number = f"{n}. "
        body = prose(fix, width - GUTTER - len(number), FIX_ROWS)
        lines: list[Line] = [
            (Segment(" " * GUTTER), Segment(number if i == 0 else " " * len(number), "dim"), Segment(row))
            for i, row in enumerate(body)
        ]
        if n == 1:
            lines[0] = (Segment(_label("fix"), "label"), *lines[0][1:])
        out.append(lines)
    return out


def example_choice(example: tuple[ExampleLine, ...], count: int) -> list[ExampleLine]:
    """`count` lines of a before/after. The changes that replace failing code come first (a helper the fix
    adds reads as an "after" with no "before"), each change's lines `-` then `+`; then the last lines of the
    first change's failing code (where it fails) and as many of the fix's lines as remain: the fix is what a
    person came for."""
    replaces = {line.hunk for line in example if line.mark == "-"}
    hunks = sorted({line.hunk for line in example}, key=lambda hunk: (hunk not in replaces, hunk))
    ordered = [line for hunk in hunks for line in example if line.hunk == hunk]
    if len(ordered) <= count:
        return ordered
    before = [n for n, line in enumerate(ordered) if line.mark == "-" and line.hunk == hunks[0]]
    rest = [n for n in range(len(ordered)) if n not in before]
    keep_before = min(len(before), max(1, count // 3)) if rest else count

    # A failing line the fix keeps inside a new one (`println!` moved into a `match` arm) is not where it
    # fails: the last lines the fix really changes are kept, moved ones only when too few changed.
    def statement(n: int) -> str:
        return code_only(ordered[n].text).strip().rstrip(";,")

    added = [statement(n) for n in rest if ordered[n].mark == "+"]
    moved = [n for n in before if any(statement(n) in a for a in added)]
    changed = [n for n in before if n not in moved]
    chosen = set(changed[max(len(changed) - keep_before, 0) :]) | set(moved[: max(keep_before - len(changed), 0)])
    chosen |= set(rest[: count - keep_before])
    return [line for n, line in enumerate(ordered) if n in chosen]


def _example(explanation: Explanation, count: int, width: int, seen_with: str = "with --full") -> list[Line]:
    """`count` lines of the example's before/after, each run of lines beside its label."""
    lines = example_choice(explanation.example, count)
    out: list[Line] = []
    previous = None
    for line in lines:
        label = {"-": "before", "+": "after", " ": "example"}[line.mark]
        gutter = Segment(_label(label), label) if line.mark != previous else Segment(" " * GUTTER)
        out.append((gutter, *code_segments(line.text, width - GUTTER, explanation.language)))
        previous = line.mark
    hidden = len(explanation.example) - len(lines)
    if hidden > 0:
        out.append((Segment(" " * GUTTER), Segment(f"{CUT} {hidden} more lines {seen_with}", "dim")))
    return out


def _link_row(label: str, url: str) -> list[Line]:
    """A link beside its label, whole on its row (a URL is never wrapped: it would not work cut)."""
    return labelled(label, [(Segment(url, "link", target=url),)])


def _source(explanation: Explanation, width: int, hyperlinks: bool) -> list[Line]:
    """Where the library raises it, with its link: the place itself is the link where the terminal shows
    OSC 8 links; elsewhere the whole URL follows on a row of its own."""
    url = explanation.url
    if explanation.raised is None:
        return _link_row("raised", url) if url else []
    if url and hyperlinks:  # each row of the place is the link: a terminal would wrap one long row to column 0
        rows_ = prose(explanation.raised, width - GUTTER, 2)
        return labelled("raised", [(Segment(row, "link", target=url),) for row in rows_])
    out = _text_rows("raised", explanation.raised, width, 2, "path")
    if url:
        indent = " " * GUTTER if cells(url) <= width - GUTTER else INDENT
        out.append((Segment(indent), Segment(url, "link", target=url)))
    return out


def _raised(raised: RaisedLines, width: int, hyperlinks: bool) -> list[Line]:
    """Where the library raised an error no record explains (or only its class's), in the room a record's fix
    would take: the library, version and place (the link itself where the terminal shows OSC 8 links), the
    raising lines, and the link on a row of its own elsewhere."""
    url = raised.url
    said = ", ".join(part for part in (raised.library, raised.where) if part)
    if len(prose(said, width - GUTTER)) > 2:  # a long path loses its middle, never the file's name and line
        head = raised.library + ", " if raised.library else ""
        room = width - GUTTER - cells(CUT)  # the library on the first row, the end of the path whole on the second
        keep = chars_within(raised.where[::-1], 0, max(room, 20))
        said = head + CUT + raised.where[len(raised.where) - keep :]
    if url and hyperlinks:
        out = labelled("raised", [(Segment(row, "link", target=url),) for row in prose(said, width - GUTTER, 2)])
    else:
        out = _text_rows("raised", said, width, 2, "path")
    out += _numbered(list(raised.code), raised.language, width)
    if raised.note:
        out += _text_rows("", raised.note, width, 2, "dim")
    if url and not hyperlinks:
        indent = " " * GUTTER if cells(url) <= width - GUTTER else INDENT
        out.append((Segment(indent), Segment(url, "link", target=url)))
    return out


def card(brief: Brief, width: int, *, hyperlinks: bool = False, number: str = "", full_hint: bool = True) -> list[Line]:
    """One error in at most SCREEN_ROWS rows at `width` columns (when its required parts fit at all)."""
    role = "heading" if brief.explanations else "unknown"
    heading: list[Line] = [(Segment(row, role),) for row in prose(number + brief.heading, width, 2)]
    top = heading + _message(brief, width)
    if brief.explanations:
        top += _matched(brief.explanations[0], width)
    top += _where(brief, width)
    your_line = _code(brief, width, marked_only=True)
    if brief.repeat_of is not None:
        return top + your_line + _text_rows("why", f"explained above, for error {brief.repeat_of}", width, 1)
    if not brief.explanations:
        verdict: list[Line] = [(Segment(INDENT + "No record matches this error.", "unknown"),)]
        near = [_text_rows("nearest" if i == 0 else "", n, width, 2) for i, n in enumerate(brief.near)]
        found = [row for rows_ in near for row in rows_] or _text_rows("nearest", "no record comes close", width, 1)
        search = _text_rows("try", brief.search or "", width, 2)
        said = _text_rows("rustc", brief.compiler, width, 3) if brief.compiler else []
        page = _link_row("docs", brief.compiler_page) if brief.compiler_page else []
        raised = _raised(brief.raised, width, hyperlinks) if brief.raised else []
        return top + _code(brief, width, marked_only=False) + said + page + raised + verdict + found + search
    first = brief.explanations[0]
    why = _why(first.why, width) if first.why else []
    fixes = _fixes(first.fixes, width)
    # A class-level answer: where the library raised it, read here, is the most specific thing known, and takes
    # the place of the record's own (where the class is defined, not where this error was raised).
    source = _raised(brief.raised, width, hyperlinks) if brief.raised else _source(first, width, hyperlinks)
    others = [row for text in brief.others for row in _text_rows("also", text, width, MATCHED_ROWS)]
    # The wrapper around the error explained above: its record in one line.
    later = [row for e in brief.explanations[1:] for row in _text_rows("wrapper", e.matched, width, MATCHED_ROWS)]
    more = _text_rows("more", f"{first.more} · or add --full" if full_hint else first.more, width, 2)
    seen_with = "with --full" if full_hint else "with the show command"
    context = _code(brief, width, marked_only=False)

    def drawn(part: str, amount: int) -> list[Line]:
        if part == "fixes":
            return [row for fix in fixes[:amount] for row in fix]
        if part == "example":
            return _example(first, amount, width, seen_with) if amount else []
        return context if amount else your_line  # "context"

    there = {"fixes": len(fixes), "example": len(first.example), "context": int(len(context) > len(your_line))}
    required = total_rows(top + why + source + others + later + more, width)
    shown = _kept_by_priority(drawn, there, required, width)
    return top + shown["context"] + why + shown["fixes"] + shown["example"] + source + others + later + more


def _kept_by_priority(
    drawn: Callable[[str, int], list[Line]], there: dict[str, int], required: int, width: int
) -> dict[str, list[Line]]:
    """The rows of each part of PRIORITIES (`drawn(part, amount)`), as much of each as the screen holds once
    the `required` rows are counted: the first fix is required, the rest given room in PRIORITIES' order."""
    amounts = {"fixes": min(there["fixes"], 1), "example": 0, "context": 0}
    shown = {part: drawn(part, amount) for part, amount in amounts.items()}

    def room_for(part: str, lines: list[Line]) -> bool:
        beside = sum(total_rows(rows_, width) for name, rows_ in shown.items() if name != part)
        return required + beside + total_rows(lines, width) <= SCREEN_ROWS

    stepped: set[str] = set()
    for part, wanted in PRIORITIES:
        first_step = part not in stepped
        stepped.add(part)
        if not amounts[part]:
            size = there[part] if there[part] <= wanted + 1 else wanted
            if first_step and size and room_for(part, lines := drawn(part, size)):
                amounts[part], shown[part] = size, lines
            continue
        while amounts[part] < min(wanted, there[part]):
            lines = drawn(part, amounts[part] + 1)
            if not room_for(part, lines):
                break
            amounts[part], shown[part] = amounts[part] + 1, lines
    return shown


def report_cards(
    briefs: list[Brief], width: int, *, hyperlinks: bool = False, full_hint: bool = True
) -> list[list[Line]]:
    """Each error's card, numbered when there are several."""
    total = len(briefs)
    return [
        card(b, width, hyperlinks=hyperlinks, number=f"[{n}/{total}] " if total > 1 else "", full_hint=full_hint)
        for n, b in enumerate(briefs, start=1)
    ]


def count_rows(report: Report, width: int) -> list[Line]:
    """`3 errors: 2 explained, 1 unknown` when there are several, wrapped to `width` (a row keeps the space
    it broke at)."""
    said = count_line(report)
    if not said:
        return []
    starts = [start for start, _ in wrap_ranges(said, width)][1:]
    return [(Segment(said[a:b], "count"),) for a, b in zip([0, *starts], [*starts, len(said)], strict=True)]


def render_cards(
    report: Report, style: Style, width: int, line_text: Callable[[Line], str], *, hyperlinks: bool = False
) -> str:
    """The default view as text: each error on one screen, a blank row between them, then the count of them
    when there are several; `line_text` writes a row (plain: its text; terminal: styled)."""
    found = briefs(report, verbose=style.verbose, show_all=style.show_all)
    out: list[str] = []
    for n, lines in enumerate(report_cards(found, width, hyperlinks=hyperlinks, full_hint=style.full_hint)):
        if n:
            out.append("")
        out += [line_text(line) for line in lines]
    counted = count_rows(report, width)
    if counted:
        out += ["", *(line_text(line) for line in counted)]
    return "\n".join(out) + "\n" if out else ""
