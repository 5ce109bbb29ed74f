"""What the compiler says of an error code no record explains: the error index's page, and `rustc --explain`.

Only a compile error with a code and no record gets one (`find_sources`), and `rustc --explain` runs
only when a view reads the explanation's `text` (the default view, `--full`, JSON), once per code,
with a short timeout (one lookup per code: the errors of one code share it): an input without compile
errors never reaches this module.
"""

from __future__ import annotations

from leafexplain.libraries import rust_error_page
from leafexplain.locate.files import LocalPaths

EXPLAIN_TIMEOUT = 3.0  # seconds: `rustc --explain` prints a file it holds, in a few milliseconds
# What is kept of the explanation: its opening, as much as the default view gives a record's `why:` line.
MAX_EXPLAIN_CHARS = 400
MAX_EXPLAIN_BYTES = 1 << 20  # rustc's longest explanation is a few kilobytes: anything longer is not rustc's


class CodeLookup:
    """`Located.explanation` (read as a models.CodeExplanation): the code and its page, and rustc's text, asked of
    rustc when first read."""

    __slots__ = ("_paths", "_text", "code", "url")

    def __init__(self, code: str, paths: LocalPaths) -> None:
        self.code, self.url, self._paths = code, rust_error_page(code) or "", paths
        self._text: tuple[str | None] | None = None

    @property
    def text(self) -> str | None:
        if self._text is None:
            self._text = (explain_text(self.code, self._paths),)
        return self._text[0]

    def _asdict(self) -> dict[str, str | None]:
        return {"code": self.code, "url": self.url, "text": self.text}

    def __eq__(self, other: object) -> bool:
        fields = getattr(other, "_asdict", None)
        return callable(fields) and self._asdict() == fields()

    def __hash__(self) -> int:
        return hash((self.code, self.url))

    def __repr__(self) -> str:
        return f"CodeLookup(code={self.code!r}, url={self.url!r})"


def explain_text(code: str, paths: LocalPaths) -> str | None:
    """The opening of what `rustc --explain CODE` prints, trimmed; None: no rustc here, or it said nothing."""
    if rust_error_page(code) is None or not paths.rustc_on_path:  # `E0382`'s shape: the only argument rustc gets
        return None
    import shutil

    rustc = shutil.which("rustc", path=paths.search_path)
    if rustc is None:
        return None
    return opening(_run_explain(rustc, code))


def _run_explain(rustc: str, code: str) -> str:
    import subprocess

    try:
        done = subprocess.run(
            [rustc, "--explain", code],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=EXPLAIN_TIMEOUT,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return ""
    if done.returncode != 0 or len(done.stdout) > MAX_EXPLAIN_BYTES:
        return ""
    return done.stdout.decode("utf-8", "replace")


def opening(markdown: str) -> str | None:
    """The explanation's first paragraph (and the next, while they are short), its lines joined, cut at a word
    within MAX_EXPLAIN_CHARS. A code block, a heading or `Erroneous code example:` ends it."""
    from leafexplain.text import clean_line

    kept: list[str] = []
    for paragraph in markdown.replace("\r\n", "\n").split("\n\n"):
        text = " ".join(clean_line(line).strip() for line in paragraph.strip().splitlines())
        example = text.find("Erroneous code example")
        if example >= 0:
            text = text[:example].strip()
        prose = not text.startswith(("```", "#"))
        if text and prose:
            kept.append(text)
        if kept and (example >= 0 or not prose or sum(map(len, kept)) >= MAX_EXPLAIN_CHARS // 2):
            break
    joined = " ".join(kept)
    if joined.endswith(":"):  # `... a type which doesn't implement it:` and then its example, not shown here
        joined = joined[:-1] + "."
    if len(joined) > MAX_EXPLAIN_CHARS:
        joined = joined[: joined.rfind(" ", 0, MAX_EXPLAIN_CHARS - 1)].rstrip(",;:") + "…"
    return joined or None
