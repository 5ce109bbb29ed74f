"""Check records against a local copy of their repository: commit, file, and the message's line."""

from __future__ import annotations

import subprocess
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from leafexplain.locate.message import fragment_lines, search_fragment
from leafexplain.models import Record, Verdict, VerifyStatus


class SourceTree:
    """A checkout, a bare git directory, or an unpacked release tarball."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.git_dir = self._git_dir(root)

    @staticmethod
    def _git_dir(root: Path) -> Path | None:
        if (root / ".git").exists():
            return root / ".git"
        if (root / "HEAD").is_file() and (root / "objects").is_dir():
            return root
        return None

    def _git(self, *args: str) -> subprocess.CompletedProcess[bytes]:
        return subprocess.run(["git", f"--git-dir={self.git_dir}", *args], capture_output=True, timeout=60)

    def has_commit(self, sha: str) -> bool | None:
        """None when this tree has no git history to ask."""
        if self.git_dir is None:
            return None
        return self._git("cat-file", "-e", f"{sha}^{{commit}}").returncode == 0

    def read(self, path: str, sha: str | None) -> str | None:
        """The file at `sha` where there is history, else as it stands (or at HEAD, when bare)."""
        file = self.root / path
        if self.git_dir is not None:
            for rev in ([sha] if sha else []) + ([] if file.is_file() else ["HEAD"]):
                shown = self._git("show", f"{rev}:{path}")
                if shown.returncode == 0:
                    return shown.stdout.decode("utf-8", "replace")
        if file.is_file():
            return file.read_text("utf-8", errors="replace")
        return None

    def has_file(self, path: str) -> bool:
        if (self.root / path).is_file():
            return True
        return self.git_dir is not None and self._git("cat-file", "-e", f"HEAD:{path}").returncode == 0


def guess_repo(tree: SourceTree, records: Sequence[Record]) -> str | None:
    """The repository whose records' files this tree holds most of."""
    counts = Counter(r.repo for r in records if r.filePath and tree.has_file(r.filePath))
    return counts.most_common(1)[0][0] if counts else None


def verify_record(record: Record, tree: SourceTree) -> Verdict:
    sha = record.analyzedSha
    if sha and tree.has_commit(sha) is False:
        # Keep going with the files as they are, to say where the message stands now.
        status_if_found: VerifyStatus = "missing-commit"
        detail = f"commit {sha[:12]} is not in this repository"
        sha = None
    else:
        status_if_found, detail = "ok", ""
    if not record.filePath:
        return Verdict(record, "missing-file", detail="the record has no filePath")
    text = tree.read(record.filePath, sha)
    if text is None:
        return Verdict(record, "missing-file", detail=f"{record.filePath} does not exist here")
    fragment = search_fragment(record.messagePattern)
    if fragment is None and record.errorClass:
        # A record for an exception class as such: its raise site names the class (`_PyErr_SetKeyError`).
        fragment = record.errorClass.rsplit(".", 1)[-1]
    if fragment is None:
        return Verdict(record, "not-found", detail="the pattern has no literal text to look for")
    hits = fragment_lines(text, fragment)
    if not hits:
        return Verdict(record, "not-found", detail=f"'{fragment}' is not in {record.filePath}")
    want = record.lineNumber or 0
    nearest = min(hits, key=lambda n: (abs(n - want), n))
    if status_if_found == "missing-commit":
        return Verdict(record, "missing-commit", nearest, f"{detail}; the message is at line {nearest} here")
    if nearest != want:
        return Verdict(record, "moved", nearest, f"the message is at line {nearest}, not {want}")
    return Verdict(record, "ok", nearest)


def verify_records(records: Sequence[Record], root: Path, repo: str | None = None) -> tuple[str | None, list[Verdict]]:
    tree = SourceTree(root)
    repo = repo or guess_repo(tree, records)
    chosen = [r for r in records if r.repo == repo] if repo else []
    return repo, [verify_record(r, tree) for r in chosen]
