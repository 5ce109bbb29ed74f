"""A notebook's explanation as HTML: the default view (or the long view) in a small block styled like Jupyter's.

What the IPython extension displays under a failing cell, beside the plain format's text as its
`text/plain`. One `<div>` with inline styles only (no stylesheet, no script: a notebook shows an
output's HTML in its own page, and a `<style>` there would restyle that page). The colours are
JupyterLab's theme variables, with fallbacks for the classic notebook, VS Code and exported HTML, so
the block follows a dark theme too. Every text is escaped; a link is one `safe_link` passed.
"""

from __future__ import annotations

from html import escape

from leafexplain.models import Report
from leafexplain.render.brief import Brief, briefs
from leafexplain.render.document import View, report_views
from leafexplain.render.sections import Block, snippet_lines
from leafexplain.render.style import Style

MAX_FIXES = 3
BOX = (
    "border-left:3px solid var(--jp-brand-color1,#1976d2);padding:6px 12px;margin:6px 0;"
    "background:var(--jp-layout-color2,rgba(127,127,127,0.08));color:var(--jp-content-font-color1,inherit);"
    "font-family:var(--jp-content-font-family,system-ui,sans-serif);font-size:var(--jp-content-font-size1,13px);"
    "line-height:1.45"
)
TITLE = "font-weight:600"
LABEL = "font-weight:600;margin-top:6px"
CODE = "font-family:var(--jp-code-font-family,monospace);font-size:var(--jp-code-font-size,12px)"
PRE = f"{CODE};margin:2px 0;padding:0;background:none;white-space:pre-wrap"
MUTED = "color:var(--jp-content-font-color2,#666)"
LIST = "margin:2px 0;padding-left:22px"


def _link(url: str, text: str | None = None) -> str:
    return f'<a href="{escape(url)}" target="_blank" rel="noopener noreferrer">{escape(text or url)}</a>'


def _brief_html(made: Brief) -> str:
    parts = [f'<div style="{TITLE}">{escape(made.heading)}</div>']
    parts.append(f'<div style="{PRE}">{escape(made.message.strip())}</div>')
    if made.where:
        parts.append(f'<div style="{MUTED}">your code: <span style="{CODE}">{escape(made.where)}</span></div>')
    if made.repeat_of is not None:
        parts.append(f'<div style="{MUTED}">explained above (error {made.repeat_of})</div>')
        return "".join(parts)
    for number, said in enumerate(made.explanations):
        if number:  # the wrapper around the error explained first: one line
            parts.append(f'<div style="{MUTED}">also: {escape(said.matched)}</div>')
            continue
        parts.append(f'<div style="{MUTED}">matched {escape(said.matched)}</div>')
        if said.why:
            parts.append(f'<div style="{LABEL}">What it means</div><div>{escape(said.why)}</div>')
        if said.fixes:
            fixes = "".join(f"<li>{escape(fix)}</li>" for fix in said.fixes[:MAX_FIXES])
            parts.append(f'<div style="{LABEL}">How to fix it</div><ol style="{LIST}">{fixes}</ol>')
        if said.raised or said.url:
            where = _link(said.url, said.raised) if said.url else escape(said.raised or "")
            parts.append(f'<div style="{LABEL}">Where it is raised</div><div>{where}</div>')
        parts.append(
            f'<div style="{MUTED};margin-top:4px">more: <code>%explain</code> or <code>{escape(said.more)}</code></div>'
        )
    return "".join(parts)


def _block_html(block: Block) -> str:
    if block.kind == "text":
        return f"<div>{escape(block.text)}</div>"
    if block.kind in ("bullets", "numbered"):
        tag = "ol" if block.kind == "numbered" else "ul"
        items = "".join(f"<li>{escape(item)}</li>" for item in block.items)
        return f'<{tag} style="{LIST}">{items}</{tag}>'
    if block.kind == "code":
        return f'<pre style="{PRE}">{escape(block.text)}</pre>'
    if block.kind == "snippet":
        return f'<pre style="{PRE}">{escape(chr(10).join(snippet_lines(block, "")))}</pre>'
    return f"<div>{_link(block.text) if block.text.startswith('https://') else escape(block.text)}</div>"


def _view_html(view: View) -> str:
    parts = [f'<div style="{TITLE}">{escape(view.heading)}</div>']
    if view.message.strip():
        parts.append(f'<pre style="{PRE}">{escape(view.message.strip())}</pre>')
    for key, value in view.facts:
        parts.append(f'<div><span style="{MUTED}">{escape(key)}:</span> {escape(value)}</div>')
    for section in view.sections:
        parts.append(f'<div style="{LABEL}">{escape(section.title)}</div>')
        parts.extend(_block_html(block) for block in section.blocks)
    return "".join(parts)


def notebook_html(report: Report, style: Style) -> str:
    """The report as one HTML block: each error's default view, or with `style.full` its long view ("" when the
    report has no finding)."""
    if style.full:
        cards = [_view_html(view) for view in report_views(report, style)]
    else:
        cards = [_brief_html(made) for made in briefs(report, verbose=style.verbose, show_all=style.show_all)]
    if not cards:
        return ""
    rule = '<hr style="border:none;border-top:1px solid var(--jp-border-color2,#ddd);margin:6px 0">'
    return f'<div class="leafexplain" style="{BOX}">{rule.join(cards)}</div>'
