"""Check records against a local copy of their repository: commit, file, and the message's line.

A record's `filePath` is data from elsewhere: only a plain relative path inside `--source` is read
(no `..`, not absolute, no control character, not through a symlink that leads out), and only a
regular file of at most MAX_SOURCE_BYTES, from the tree or from git.
"""

from __future__ import annotations

import re
import subprocess
from collections import Counter
from collections.abc import Sequence
from pathlib import Path, PurePosixPath, PureWindowsPath

from leafexplain.locate.message import fragment_lines, search_fragment
from leafexplain.models import Record, Verdict, VerifyStatus
from leafexplain.safeio import FileTooLarge, inside, read_regular

MAX_SOURCE_BYTES = 16 * 1024 * 1024  # the largest source files of the libraries we know are a few MB
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


class Unreadable(Exception):
    """A record's file that verify does not read: outside the tree, too large, not a regular file."""


def tree_path(path: str) -> str | None:
    """`path` when it is a plain relative path that stays inside the tree, else None."""
    if not path or _CONTROL.search(path) or PureWindowsPath(path).drive or path.startswith(("/", "\\")):
        return None
    parts = PurePosixPath(path.replace("\\", "/")).parts
    return None if not parts or ".." in parts else "/".join(parts)


class SourceTree:
    """A checkout, a bare git directory, or an unpacked release tarball."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.git_dir = self._git_dir(root)

    def _file(self, path: str) -> Path | None:
        """The tree's file for a record's path, when it is a plain relative path that stays inside the tree."""
        rel = tree_path(path)
        return None if rel is None or not inside(self.root / rel, self.root) else self.root / rel

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
        """The file at `sha` where there is history, else as it stands (or at HEAD, when bare); None when it is
        not there. Raises Unreadable for a path that leaves the tree, a file too large or not a regular file."""
        file, rel = self._file(path), tree_path(path)
        if file is None or rel is None:
            raise Unreadable(f"{path} is not a path inside --source: not read")
        if self.git_dir is not None:
            for rev in ([sha] if sha else []) + ([] if file.is_file() else ["HEAD"]):
                size = self._git("cat-file", "-s", f"{rev}:{rel}")
                if size.returncode != 0:
                    continue
                if not size.stdout.strip().isdigit() or int(size.stdout) > MAX_SOURCE_BYTES:
                    raise Unreadable(f"{path} is larger than {MAX_SOURCE_BYTES} bytes: not read")
                shown = self._git("cat-file", "blob", f"{rev}:{rel}")
                if shown.returncode == 0:
                    return shown.stdout.decode("utf-8", "replace")
        if not file.exists():
            return None
        try:
            return read_regular(file, MAX_SOURCE_BYTES).decode("utf-8", "replace")
        except FileTooLarge:
            raise Unreadable(f"{path} is larger than {MAX_SOURCE_BYTES} bytes: not read") from None
        except OSError as exc:
            raise Unreadable(f"{path}: {exc.strerror or exc}; not read") from None

    def has_file(self, path: str) -> bool:
        file, rel = self._file(path), tree_path(path)
        if file is None or rel is None:
            return False
        if file.is_file():
            return True
        return self.git_dir is not None and self._git("cat-file", "-e", f"HEAD:{rel}").returncode == 0


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
    try:
        text = tree.read(record.filePath, sha)
    except Unreadable as exc:
        return Verdict(record, "missing-file", detail=str(exc))
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
