"""Whose error a Python event is by its place: the library of its qualified class, or of the frame that raised it.

A library's own message may hold a standard wording (`Failed to establish a new connection: [Errno 111]
Connection refused` inside requests' ConnectionError, a binding's `RuntimeError: Already borrowed`): the
words are CPython's, the error is the library's. The place says so: a class printed with its module
(`requests.exceptions.ConnectionError`), or the innermost frame in another library's files. A wording of one
repository found in an event another library owns is not that repository's error (match/ marks it down).

An error raised in another file (the user's own code) is not a library's `raise` in its Python file (that
file's frame would be the innermost). Some places are decisive (`decisive`): a qualified class; a library's
frame that raised the error itself (its line a `raise`, or a `__getattr__` raising AttributeError) against a
record the interpreter's C code raises; a Rust panic located in a crate's folder whose message the crate wrote
(its own message in std's assertion form, its own words before std's). Such an event is not the record's error
at all, and its record does not explain it.
"""

from __future__ import annotations

import builtins
import sys
from collections.abc import Callable, Sequence

from leafexplain.models import ErrorEvent, Frame

CPYTHON = "python/cpython"
RUST_STD = "rust-lang/rust"
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
        return ("raising frame's own raise" if raised_by_frame(event) else "raising frame"), package
    return None


# A Python class's hook that Python calls when its own lookup has failed: the AttributeError it ends in is its own.
_ATTRIBUTE_HOOKS = frozenset({"__getattr__", "__getattribute__", "__getattr_impl"})


def raised_by_frame(event: ErrorEvent) -> bool:
    """The innermost frame raised the error itself, in Python: its line shown is a `raise` statement, or it is a
    `__getattr__` (a module's or a class's) ending in AttributeError. Then no C code under it did (the
    interpreter raises from whatever frame called it, and the line shown is that call)."""
    frame = event.location
    if frame is None:
        return False
    code = (frame.code or "").lstrip()
    if code.startswith("raise "):  # not a bare `raise`: that re-raises what another raised
        return True
    if "getattr" in code or "__getattribute__" in code:
        return False  # a hook handing the lookup on (`return getattr(self._obj, name)`): whoever it asked raised
    return (event.error_type or "").rsplit(".", 1)[-1] == "AttributeError" and frame.function in _ATTRIBUTE_HOOKS


def is_elsewhere(
    event: ErrorEvent,
    repo: str,
    record_file: Callable[[], str | None],
    wordings: Callable[[], Sequence[str]] = tuple,
) -> str | None:
    """The reason a record of `repo` is not this event's error by its place, or None when the place agrees or
    says nothing. A raising frame counts only against a record raised in its own frame (`record_file`, asked
    only when it matters, is a .py file: see `raises_in_its_frame`), unless the frame raised the error itself
    (`raised_by_frame`): then it counts, decisively, against a record raised anywhere else (the interpreter's C).
    A Rust panic: see `panic_elsewhere` (`wordings`, the record's, asked only for a panic in a crate's folder)."""
    if event.language == "rust":
        return panic_elsewhere(event, repo, wordings)
    found = owner(event)
    if found is None:
        return _not_its_frame(event, repo, record_file)
    how, module = found
    if how != "qualified class" and raises_in_its_frame(record_file()):
        how = "raising frame"  # a library's `raise` of a wording raised in Python: a copy, ranked after its own
    elif how == "raising frame":
        return _not_its_frame(event, repo, record_file)
    own = CPYTHON if module == "builtins" else module_repo(module)
    if own == repo:
        return _not_its_frame(event, repo, record_file)
    if own is None and repo not in REPO_MODULES and repo != CPYTHON:
        return None  # neither side is a library the tables know: nothing to compare
    return f"{how} is {module}'s, not {repo}'s"


def _not_its_frame(event: ErrorEvent, repo: str, record_file: Callable[[], str | None]) -> str | None:
    """A library's `raise` in its Python code shows that file as the innermost frame: an error raised elsewhere (the
    user's code, or another of the library's files handing a lookup to the interpreter) is not that raise. A
    library record with the interpreter's words (torch's nn.Module `'X' object has no attribute 'y'`, from its
    `__getattr__`) ranks after the interpreter's there. Not decisive: a paste may have lost the library's frames,
    and an older release may raise it from another file."""
    frame = event.location
    if event.language != "python" or repo == CPYTHON or frame is None:
        return None
    path = record_file()
    if not path or not raises_in_its_frame(path):
        return None
    if frame.file.replace("\\", "/").endswith(path.removeprefix("src/")):
        return None
    return f"raising frame is not {repo}'s {path}"


def another_librarys_class(printed: str, record_class: str) -> str | None:
    """Why the class an event printed is not the library's class a record is for, or None. Another name than the
    record's, neither a built-in's nor of the record library's modules (`HfHubHTTPError`, or
    `huggingface_hub.utils._errors.HfHubHTTPError`, where the record is requests' `requests.exceptions.HTTPError`),
    is a class of another library, or of the user's, that kept the record library's words: huggingface_hub
    re-raises requests' `500 Server Error: … for url: …` as its own HfHubHTTPError. The words are the record
    library's, the error is not its class's. A record of a built-in class (`ValueError`) or of the standard
    library's says nothing so: any library raises subclasses of those with messages of its own."""
    if "." not in record_class or (hasattr(builtins, printed) and "." not in printed):
        return None
    module, name = record_class.split(".", 1)[0], record_class.rsplit(".", 1)[-1]
    own = module_repo(module)
    if printed.rsplit(".", 1)[-1] == name or own in (None, CPYTHON):
        return None
    if "." in printed and module_repo(printed.split(".", 1)[0]) in (own, CPYTHON):
        return None  # another class of the record's library (its own subclass), or the standard library's
    return f"class {printed} is another library's than {record_class}"


def decisive(why: str) -> bool:
    """The place says the event is not the record's error at all (a wording found drops below the cut-off), not
    only that another library's record comes first."""
    return why.startswith(("qualified class", "raising frame's own raise", "panic location"))


# cargo's home, where the crates a project depends on are unpacked: a panic located there is that crate's.
_CRATE_FOLDERS = ("/registry/src/", "/git/checkouts/")
# std's assert_eq!/assert_ne! form with the caller's own message in it (core's assert_failed_inner): Rust 1.73
# and later put it after `failed: `, 1.72 and older after the right-hand value.
_ASSERTION_WITH_MESSAGE = (
    "assertion `left {} right` failed: {}\n  left: {}\n right: {}",
    "assertion failed: `(left {} right)`\n  left: `{}`,\n right: `{}`: {}",
)


def panic_crate(event: ErrorEvent) -> str | None:
    """The crate a Rust panic is located in (`tokio` for `registry/src/<index>/tokio-1.2.0/…`, `wgpu-core` in a
    git checkout), or None: the user's code, std's, or no location."""
    if event.location is None:
        return None
    path = "/" + event.location.file.replace("\\", "/").lstrip("/")
    for marker in _CRATE_FOLDERS:
        at = path.rfind(marker)
        if at >= 0:
            parts = path[at + len(marker) :].split("/")
            if marker == "/registry/src/":  # `<index>/<crate>-<x.y.z>/…`
                if len(parts) < 3:
                    return None
                name, _, version = parts[1].rpartition("-")
                while name and not version[:1].isdigit():  # a pre-release: `foo-1.0.0-alpha.1`
                    name, _, version = name.rpartition("-")
                return name or parts[1]
            # `<name>-<hash>/<rev>/<crate>/src/…`, or `<name>-<hash>/<rev>/src/…` for a checkout of one crate
            inner = parts[2:]
            at_src = inner.index("src") if "src" in inner else 0
            return inner[at_src - 1] if at_src > 0 else parts[0].rsplit("-", 1)[0]
    return None


def panic_elsewhere(event: ErrorEvent, repo: str, wordings: Callable[[], Sequence[str]]) -> str | None:
    """Why a record of Rust's standard library is not a panic a crate raised, or None. A panic located in a crate's
    folder was raised by that crate's code; std's record explains it when std wrote the message for the crate's
    call (`unwrap` on None, an index out of bounds, a RefCell already borrowed: std's words open the message), and
    a bare assertion of the crate's (std's assertion records are for any code's `assert!`/`assert_eq!`: they print
    only its condition or values). Not when the crate wrote the message: its own message inside std's assertion
    form (`assert_eq!(a, b, "ShaderModule[0] is no longer alive")`), or its own words before std's message on its
    line (`Service state is already borrowed: …` is an `expect`'s)."""
    if repo != RUST_STD or (crate := panic_crate(event)) is None:
        return None
    from leafexplain.records.patterns import compile_pattern  # only for a panic in a crate's folder

    message = event.message
    # std's own messages open in lower case (`already borrowed: …`, `attempt to add with overflow`); a value std
    # formats (`ParseIntError { kind: Empty }`, `Os { code: 2, … }`) is a type's name, found inside a crate's own
    # message as what it carries (its payload), wherever the crate put it.
    found = [(p, hit) for p in wordings() if p[:1].islower() and (hit := compile_pattern(p).search(message))]
    if not found:
        return None
    if any(compile_pattern(form).search(message) for form in _ASSERTION_WITH_MESSAGE):
        return f"panic location is {crate}'s, its own message in {repo}'s assertion"
    if all(_inside_sentence(message, hit.begin) for _, hit in found):
        return f"panic location is {crate}'s, its own words around {repo}'s"
    return None


def _inside_sentence(message: str, begin: int) -> bool:
    """Words of the same sentence stand before `begin` on its line: the wording is the end of another message
    (a label's colon, a quote or a bracket before it leaves it opening one)."""
    lead = message[message.rfind("\n", 0, begin) + 1 : begin].rstrip()
    return bool(lead) and lead[-1].isalnum()
