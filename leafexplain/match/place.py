"""Whose error a Python event is by its place: the library of its qualified class, or of the frame that raised it.

A library's own message may hold a standard wording (`Failed to establish a new connection: [Errno 111]
Connection refused` inside requests' ConnectionError, a binding's `RuntimeError: Already borrowed`): the
words are CPython's, the error is the library's. The place says so: a class printed with its module
(`requests.exceptions.ConnectionError`), or the innermost frame in another library's files. A wording of one
repository found in an event another library owns is not that repository's error (match/ marks it down).
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from leafexplain.models import ErrorEvent, Frame

CPYTHON = "python/cpython"
# The top-level modules of each Python library with records: a class or a frame of one of them is its place.
REPO_MODULES = {
    "pytorch/pytorch": ("torch", "functorch", "torchgen"),
    "numpy/numpy": ("numpy",),
    "pandas-dev/pandas": ("pandas",),
    "scikit-learn/scikit-learn": ("sklearn",),
    "psf/requests": ("requests",),
    "urllib3/urllib3": ("urllib3",),
    "pydantic/pydantic": ("pydantic", "pydantic_core"),
    "huggingface/transformers": ("transformers",),
    "Lightning-AI/pytorch-lightning": ("lightning", "pytorch_lightning", "lightning_fabric"),
    "jax-ml/jax": ("jax", "jaxlib"),
    "tensorflow/tensorflow": ("tensorflow",),
    "keras-team/keras": ("keras", "tf_keras"),
}
_REPO_OF_MODULE = {module: repo for repo, modules in REPO_MODULES.items() for module in modules}
_PACKAGES = ("site-packages", "dist-packages")


def module_repo(module: str) -> str | None:
    """The repository a top-level module is of: CPython for the standard library; None when no table knows it."""
    if module in sys.stdlib_module_names or module == "builtins":
        return CPYTHON
    return _REPO_OF_MODULE.get(module)


def frame_package(frame: Frame) -> str | None:
    """The top-level package an installed library's frame is in (`…/site-packages/tokenizers/x.py` is
    `tokenizers`), `builtins` for the standard library's own files; None for the user's code."""
    path = frame.file.replace("\\", "/")
    for marker in _PACKAGES:
        at = path.rfind(f"/{marker}/")
        if at >= 0:
            name = path[at + len(marker) + 2 :].split("/", 1)[0]
            return name.removesuffix(".py").split(".", 1)[0] or None
    if path.startswith("<frozen ") or "/lib/python3" in path or "/Lib/" in path:
        return "builtins"
    return None


def raises_in_its_frame(path: str | None) -> bool:
    """A record raised at this file shows that file as the innermost frame: a `raise` in Python code. Not
    CPython's interpreter or a library's C++ (they raise from whatever Python frame called them), nor the
    import system, whose frames Python takes out of the traceback (the importing frame is shown instead). A record
    that names no file (a user's may not) says nothing of its frame."""
    return bool(path) and path.endswith(".py") and not path.startswith("Lib/importlib/")


def owner(event: ErrorEvent) -> tuple[str, str] | None:
    """Whose error the event is and how that is known: (`qualified class`, module) or (`raising frame`, package).
    A qualified class counts when its module is a known library's, or an installed package in the frames (a
    class of the user's own package says nothing); the standard library's are anyone's, and the raising frame
    decides. None: the place does not say."""
    if event.language != "python":
        return None
    name = event.error_type or ""
    module = name.split(".", 1)[0] if "." in name else None
    # The standard library's classes are anyone's to raise (torch raises `_pickle.UnpicklingError` with its own
    # message): such a class says nothing of the place, its frame may.
    if module is not None and module != "__main__" and module_repo(module) != CPYTHON:
        seen = {frame_package(f) for f in event.frames}
        return ("qualified class", module) if module_repo(module) is not None or module in seen else None
    if event.location is not None and (package := frame_package(event.location)) is not None:
        return "raising frame", package
    return None


def is_elsewhere(event: ErrorEvent, repo: str, record_file: Callable[[], str | None]) -> str | None:
    """The reason a record of `repo` is not this event's error by its place, or None when the place agrees or
    says nothing. A raising frame counts only against a record raised in its own frame (`record_file`, asked
    only when it matters, is a .py file: see `raises_in_its_frame`)."""
    found = owner(event)
    if found is None:
        return None
    how, module = found
    if how == "raising frame" and not raises_in_its_frame(record_file()):
        return None
    own = CPYTHON if module == "builtins" else module_repo(module)
    if own == repo:
        return None
    if own is None and repo not in REPO_MODULES and repo != CPYTHON:
        return None  # neither side is a library the tables know: nothing to compare
    return f"{how} is {module}'s, not {repo}'s"
