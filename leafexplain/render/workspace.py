"""Where an error stands as CI and code review see it: the user's frame, as a path relative to the workspace.

GitHub places an annotation, and code scanning a SARIF result, on a file of the repository named
relative to its root: `$GITHUB_WORKSPACE` in Actions, `$CI_PROJECT_DIR` in GitLab CI, else the
current folder. A frame outside it (a container's path, the Python installation) has no place there.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from leafexplain.models import ErrorEvent, Frame, Located
from leafexplain.named import NamedTuple

WORKSPACE_VARIABLES = ("GITHUB_WORKSPACE", "CI_PROJECT_DIR")


class Place(NamedTuple):
    """Where an error points: a path relative to the workspace (None: outside it), the line and column."""

    path: str | None
    line: int | None
    column: int | None
    frame: Frame  # the frame it came from, as printed


def workspace(environ: Mapping[str, str]) -> str:
    """The folder paths are made relative to."""
    for name in WORKSPACE_VARIABLES:
        if environ.get(name):
            return os.path.abspath(environ[name])
    try:
        return os.getcwd()
    except OSError:  # the folder was removed under us
        return os.path.abspath(os.sep)


def relative_path(file: str, root: str) -> str | None:
    """`file` relative to `root`, with `/` between its parts; None when it lies outside.

    A relative path is taken from the current folder, where the command that printed it ran.
    """
    if not file or file.startswith("<") or "\0" in file:
        return None  # <string>, <frozen ...>
    if windows_path(file) or windows_path(root):
        return _relativewindows_path(file, root)
    if "\\" in file and "/" not in file:  # printed on Windows (`src\\main.rs`), read here: the same parts
        file = file.replace("\\", "/")
    try:
        absolute = os.path.abspath(file)
        inside = os.path.relpath(absolute, root)
    except (OSError, ValueError):  # another drive (Windows), no current folder
        return None
    if inside == os.curdir or inside == os.pardir or inside.startswith(os.pardir + os.sep):
        return None
    return inside.replace(os.sep, "/")


def windows_path(path: str) -> bool:
    """A drive (`C:\\`, `C:/`) or a share (`\\\\server\\`): a path of a Windows machine, whatever this one is."""
    return (len(path) > 2 and path[1] == ":" and path[0].isalpha() and path[2] in "\\/") or path.startswith("\\\\")


def _relativewindows_path(file: str, root: str) -> str | None:
    """As `relative_path`, by Windows' rules: a Windows path lies outside a workspace of another system."""
    if not windows_path(root):
        return None  # a log from a Windows machine read in a POSIX workspace: not a file of this one
    import ntpath  # only for a Windows workspace (0.3 ms of imports every other run is spared)

    try:
        inside = ntpath.relpath(ntpath.join(root, file), root)
    except ValueError:  # another drive
        return None
    if inside in (ntpath.curdir, ntpath.pardir) or inside.startswith(ntpath.pardir + "\\"):
        return None
    return inside.replace("\\", "/")


def error_place(event: ErrorEvent, found: Located | None, root: str) -> Place | None:
    """The user's frame, relative to `root` where it lies inside. Without one (every frame is a
    library's, or none was printed) the error has no place in the user's code."""
    frame = event.user_frame
    if frame is None:
        return None
    # The file found on this machine (relative paths resolved against --root) says best where it is.
    local = found.user.path if found is not None and found.user is not None else None
    path = relative_path(local, root) if local else None
    return Place(path or relative_path(frame.file, root), frame.line, frame.column, frame)
