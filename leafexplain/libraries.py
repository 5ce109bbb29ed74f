"""What leafexplain knows about the libraries it explains: how burn, PyTorch, CPython and Rust's standard
library show in paths and frames, and where their files sit in a source tree and once installed.

The extractors ask it which frames are a library's (to find the user's own), the matcher which
repositories the frames show, and `locate/` where a record's file lies on this machine.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from leafexplain.models import ErrorEvent, Frame, Record
from leafexplain.regex import lazy_regex, search_alternatives
from leafexplain.text import shell_word

RUST_REPO = "rust-lang/rust"
CPYTHON_REPO = "python/cpython"
TORCH_REPO = "pytorch/pytorch"
CUBECL_REPO = "tracel-ai/cubecl"
BURN_REPO = "tracel-ai/burn"
GITHUB = "https://github.com"
RUST_ERROR_INDEX = "https://doc.rust-lang.org/error_codes/{code}.html"  # rustc's error index: a page per code


def rust_error_page(code: str | None) -> str | None:
    """The error index's page of a rustc error code (`E0382`); None for anything else."""
    if code is None or len(code) != 5 or code[0] != "E" or not code[1:].isdecimal():
        return None
    return RUST_ERROR_INDEX.format(code=code)


# What a person calls each library, for output: "the PyTorch record", "Raised in Rust std".
LIBRARY_NAMES = {
    BURN_REPO: "burn",
    TORCH_REPO: "PyTorch",
    CPYTHON_REPO: "Python",
    RUST_REPO: "Rust std",
    "numpy/numpy": "NumPy",
    "serde-rs/json": "serde_json",
    "serde-rs/serde": "serde",
    "tokio-rs/tokio": "tokio",
}


def library_name(repo: str) -> str:
    """The library's everyday name: `PyTorch` for pytorch/pytorch; else the repository's own name."""
    return LIBRARY_NAMES.get(repo) or repo.rsplit("/", 1)[-1]


# --- frames: whose code is it? ------------------------------------------------------------------

# burn's own crates count as a library wherever they sit (a registry, a git checkout, a
# vendored copy): the user's frame is the code that called into burn.
_RUST_LIBRARY = (
    ("crates/burn", lazy_regex(r"(^|/)crates/burn(-[a-z0-9]+)*/src/")),
    # cargo's home: `~/.cargo`, or wherever CARGO_HOME puts it (`/usr/local/cargo` in the rust Docker images),
    # and on Windows with its own separator.
    ("cargo/registry/", None),
    ("cargo/git/checkouts/", None),
    ("cargo\\registry\\", None),
    ("cargo\\git\\checkouts\\", None),
    ("/.rustup/", None),
    ("/rustlib/src/", None),
    ("rustc/", lazy_regex(r"(^|/)rustc/[0-9a-f]{7,40}/")),
    ("library/", lazy_regex(r"(^|/)library/(std|core|alloc|proc_macro|test)/src/")),
    # glibc's start-up code (`__libc_start_call_main at ./csu/../sysdeps/nptl/...`), under every `main`:
    # with the user's frames built without debug information, it was the only frame with a file.
    ("./csu/", None),
)
_RUST_STD_FUNCTION = lazy_regex(r"^(<)?(std|core|alloc|__rustc|rust_begin_unwind|test)(\[[0-9a-f]+\])?(::|$)")
_PYTHON_LIBRARY = (
    ("-packages", lazy_regex(r"[/\\](site|dist)-packages[/\\]")),
    ("python", lazy_regex(r"[/\\]lib(64)?[/\\]python\d(\.\d+)?[/\\]")),
    ("<frozen ", lazy_regex(r"^<frozen ")),
    ("Lib", lazy_regex(r"[/\\]Lib[/\\]")),
)
_BURN_CRATE = (
    ("crates/burn", lazy_regex(r"(?:^|/)crates/burn[a-z0-9-]*/")),
    ("burn_", lazy_regex(r"\bburn_[a-z0-9_]+::")),
    ("burn", lazy_regex(r"(?:^|/)burn(?:-[a-z0-9]+)*-\d+\.\d+\.\d+[^/]*/")),
    # A crate's own folder at the top of a checkout of burn's repository, as before 0.11 moved them to crates/.
    ("burn-", lazy_regex(r"(?:^|/)burn-[a-z0-9-]+/src/")),
)
# cubecl's crates, unpacked in cargo's registry (`cubecl-runtime-0.6.0/`) or in a checkout (`crates/cubecl-wgpu/`).
_CUBECL_PATH = lazy_regex(r"(?:^|/)(?:crates/cubecl[a-z0-9-]*|cubecl(?:-[a-z0-9]+)*-\d+\.\d+\.\d+[^/]*)/")
_RUST_STD_PATH = lazy_regex(r"(^|/)library/(std|core|alloc)/")
_TORCH_PATH = lazy_regex(r"[/\\]torch[/\\]")
_CPYTHON_PATH = lazy_regex(r"[/\\]lib(64)?[/\\]python3(\.\d+)?[/\\](?!.*(site|dist)-packages)")


def is_library_frame(frame: Frame, language: str) -> bool:
    """A frame in a library (the standard library, a registry crate, burn, site-packages), not the user's code."""
    if language == "rust":
        if search_alternatives(frame.file, _RUST_LIBRARY):
            return True
        return bool(frame.function and not frame.file and _RUST_STD_FUNCTION.match(frame.function))
    return search_alternatives(frame.file, _PYTHON_LIBRARY)


def library_hints(event: ErrorEvent) -> frozenset[str]:
    """Repositories evident in the event's frames and location."""
    hints: set[str] = set()
    frames = list(event.frames) + ([event.location] if event.location else [])
    for frame in frames:
        text = f"{frame.file} {frame.function or ''}"
        if "\\" in text:  # a Windows path names its library as a POSIX one does
            text = text.replace("\\", "/")
        # Each regex only where the words it needs are: most frames name none of these libraries, and a
        # regex is compiled at its first use, in every run.
        if "/rustc/" in text or ("library/" in text and _RUST_STD_PATH.search(text)):
            hints.add(RUST_REPO)
        if search_alternatives(text, _BURN_CRATE):
            hints.add(BURN_REPO)
        if "cubecl" in text and _CUBECL_PATH.search(text):
            hints.add(CUBECL_REPO)
        if "torch" in text and _TORCH_PATH.search(text):
            hints.add(TORCH_REPO)
        if "python3" in text and _CPYTHON_PATH.search(text):
            hints.add(CPYTHON_REPO)
    return frozenset(hints)


# --- files: where a record's file lies, in the tree and once installed --------------------------

RUSTC_SHA = lazy_regex(r"/rustc/([0-9a-f]{40})/")
PYTHON_LIB = lazy_regex(r"/(?:lib/python(\d+\.\d+)t?|Lib)/")
_VERSIONED_DIR = lazy_regex(r"(?:^|/)([A-Za-z0-9_.-]+?)-(\d+\.\d+[^/]*)/")
# pytorch ships its C++ headers inside the wheel, under torch/include.
_HEADER_HOMES = {
    TORCH_REPO: (
        ("aten/src/ATen/templates/", "torch/include/ATen/core/"),
        ("aten/src/ATen/", "torch/include/ATen/"),
        ("c10/", "torch/include/c10/"),
        ("torch/csrc/", "torch/include/torch/csrc/"),
    )
}


def norm_path(path: str) -> str:
    """A path as frames print it, compared with `/` and without a leading `./`."""
    path = path.replace("\\", "/")
    while path.startswith("./"):
        path = path[2:]
    return path


def ends_with(frame_path: str, tail: str) -> bool:
    path = norm_path(frame_path)
    return path == tail or path.endswith("/" + tail)


def rust_variants(rel: str) -> list[str]:
    """A module file moves between `x.rs` and `x/mod.rs` as it grows."""
    if rel.endswith("/mod.rs"):
        return [rel, rel[: -len("/mod.rs")] + ".rs"]
    if rel.endswith(".rs"):
        return [rel, rel[:-3] + "/mod.rs"]
    return [rel]


def crate_parts(record: Record, rel: str) -> tuple[str, str] | None:
    """`crates/burn-autodiff/src/tensor.rs` -> (`burn-autodiff`, `src/tensor.rs`)."""
    parts = rel.split("/")
    if "src" not in parts:
        return None
    i = parts.index("src")
    crate = parts[i - 1] if i > 0 else record.repo.rsplit("/", 1)[-1]
    return crate, "/".join(parts[i:])


def python_tail(record: Record, rel: str) -> str | None:
    """The path of a record's Python file below its import root: `torch/autograd/__init__.py`."""
    if record.repo == CPYTHON_REPO:
        return rel[len("Lib/") :] if rel.startswith("Lib/") and rel.endswith(".py") else None
    if not rel.endswith((".py", ".pyi")):
        return None
    for prefix in ("src/", "lib/"):
        if rel.startswith(prefix):
            return rel[len(prefix) :]
    return rel


def header_tail(record: Record, rel: str) -> str | None:
    """Where a C++ header of the repository sits inside its installed Python package."""
    if not rel.endswith((".h", ".hpp", ".cuh")):
        return None  # wheels ship headers, never the .cpp files
    for prefix, home in _HEADER_HOMES.get(record.repo, ()):
        if rel.startswith(prefix):
            return home + rel[len(prefix) :]
    return None


def version_from_dirs(path: str, crate: str | None = None) -> tuple[str, str] | None:
    """(name, version) of the innermost `name-1.2.3/` folder in a path (the crate's, when named)."""
    hits = [(m.group(1), m.group(2)) for m in _VERSIONED_DIR.finditer(norm_path(path))]
    hits = [h for h in hits if crate is None or h[0] == crate]
    return hits[-1] if hits else None


def frame_hint(frames: Iterable[Frame], tails: Sequence[str]) -> int | None:
    """The line a frame gives in the file that ends with one of `tails`: where to look first."""
    return next((f.line for f in frames if f.line and any(ends_with(f.file, t) for t in tails)), None)


def rustc_commit(frames: Iterable[Frame]) -> str | None:
    """The rustc commit a backtrace's `/rustc/<sha>/` paths name."""
    return next((m.group(1) for f in frames if (m := RUSTC_SHA.search(norm_path(f.file)))), None)


# --- repositories: where an installed library's file lies in its repository, at its version ---------

# A distribution's repository, the scheme of its release tags, and the folder of the repository its installed
# files sit under (an installed `torch/_tensor.py` is `torch/_tensor.py` in the repository), by distribution
# name as `normalised_name` writes it. A layout that moved is a list of (the first version with it, folder),
# newest first. requests moved into `src/` at v2.32.0 (psf/requests' tags v2.31.0 and v2.32.0).
PYTHON_LAYOUTS: dict[str, tuple[str, str, tuple[tuple[tuple[int, ...], str], ...]]] = {
    "torch": (TORCH_REPO, "v{version}", (((0,), ""),)),
    "numpy": ("numpy/numpy", "v{version}", (((0,), ""),)),
    "pandas": ("pandas-dev/pandas", "v{version}", (((0,), ""),)),
    "scikit_learn": ("scikit-learn/scikit-learn", "{version}", (((0,), ""),)),
    "requests": ("psf/requests", "v{version}", (((2, 32), "src/"), ((0,), ""))),
    "python": (CPYTHON_REPO, "v{version}", (((0,), "Lib/"),)),
    # Tags read from the repositories (Lightning's `2.6.5`, keras' `v3.15.1`, huggingface_hub's `v1.28.0`); an
    # installed `lightning/pytorch/trainer/trainer.py` is `src/lightning/pytorch/trainer/trainer.py` there.
    "lightning": ("Lightning-AI/pytorch-lightning", "{version}", (((0,), "src/"),)),
    "keras": ("keras-team/keras", "v{version}", (((0,), ""),)),
    "huggingface_hub": ("huggingface/huggingface_hub", "v{version}", (((0,), "src/"),)),
}
# The distributions whose import name is not their own (`import sklearn` is scikit-learn's): the dist-info asked
# first for a file below that folder, before the others (normalised names, as `normalised_name` writes them).
DISTRIBUTION_OF = {
    "sklearn": "scikit_learn",
    "skimage": "scikit_image",
    "cv2": "opencv_python",
    "PIL": "pillow",
    "yaml": "pyyaml",
    "dateutil": "python_dateutil",
    "attr": "attrs",
    "bs4": "beautifulsoup4",
    "jwt": "pyjwt",
    "serial": "pyserial",
    "google": "protobuf",
    "git": "gitpython",
    "dotenv": "python_dotenv",
    "multipart": "python_multipart",
    "Crypto": "pycryptodome",
    "OpenSSL": "pyopenssl",
    "usb": "pyusb",
    "wx": "wxpython",
    "pkg_resources": "setuptools",
    "_pytest": "pytest",
    "functorch": "torch",
    "torchgen": "torch",
}
# Project-URL labels that name the source repository, in the order they are trusted.
SOURCE_LABELS = ("source", "source code", "repository", "code", "github", "homepage", "home", "home-page")
_REPO_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-")
_WORD_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_'-")
_CLOSERS = {"(": ")", "[": "]", "{": "}", '"': '"', "`": "`", "'": "'"}
ISSUE_SEARCH_WORDS = 10


def normalised_name(distribution: str) -> str:
    """A distribution's name as its dist-info folder spells it, lower case: `scikit-learn` -> `scikit_learn`."""
    out = []
    for char in distribution.lower():
        sep = char in "-_."
        if not (sep and out and out[-1] == "_"):
            out.append("_" if sep else char)
    return "".join(out)


def github_repo(url: str | None) -> str | None:
    """`owner/name` of a github.com URL (a repository's, or a page inside it); None for anything else."""
    if not url:
        return None
    rest = url.strip()
    for scheme in ("https://", "http://"):
        rest = rest.removeprefix(scheme)
    rest = rest.removeprefix("www.")
    if not rest.startswith("github.com/"):
        return None
    parts = rest[len("github.com/") :].split("#", 1)[0].split("?", 1)[0].split("/")
    if len(parts) < 2:
        return None
    owner, name = parts[0], parts[1].removesuffix(".git")
    return f"{owner}/{name}" if owner and name and _REPO_CHARS.issuperset(owner + name) else None


def repo_of(distribution: str, project_urls: Sequence[tuple[str, str]]) -> str | None:
    """A distribution's repository: the project's own layout when known, else its Project-URLs' github.com one."""
    known = PYTHON_LAYOUTS.get(normalised_name(distribution))
    if known:
        return known[0]
    ranked = sorted(project_urls, key=lambda pair: _label_rank(pair[0]))
    return next((repo for label, url in ranked if _label_rank(label) < 99 and (repo := github_repo(url))), None)


def _label_rank(label: str) -> int:
    label = label.strip().lower()
    return SOURCE_LABELS.index(label) if label in SOURCE_LABELS else 99


def release(version: str) -> str:
    """A version without its local part (`2.13.0+cpu` -> `2.13.0`): the release a tag names."""
    return version.split("+", 1)[0].strip()


def _version_key(version: str) -> tuple[int, ...]:
    """`2.32.0rc1` -> (2, 32): the release's leading numbers."""
    key = []
    for part in version.split("."):
        if not part.isdecimal():
            break
        key.append(int(part))
    return tuple(key)


def source_link(distribution: str, repo: str, version: str, tail: str, line: int | None) -> tuple[str, str | None]:
    """(the URL of `tail`, an installed file's path under its site-packages, at `version` in `repo`, a note):
    the line itself where the library's tag scheme and layout are known (PYTHON_LAYOUTS), else the tag the
    version most likely has, with a note that the file's place in the repository is not known."""
    known = PYTHON_LAYOUTS.get(normalised_name(distribution))
    number = release(version)
    if known is None:
        tag = f"v{number}"
        note = f"where {tail} lies in {repo} is not known here; the link is the tag {tag}, its usual name"
        return f"{GITHUB}/{repo}/tree/{tag}", note
    _, scheme, layouts = known
    key = _version_key(number)
    folder = next(prefix for since, prefix in layouts if key >= since)
    anchor = f"#L{line}" if line else ""
    return f"{GITHUB}/{repo}/blob/{scheme.format(version=number)}/{folder}{tail}{anchor}", None


def message_words(message: str) -> list[str]:
    """The literal words of a message, its values left out: quoted or bracketed values, paths, numbers (and
    words with a digit), read with string tests (compiling the regexes would cost more than a lookup)."""
    first = message.strip().split("\n", 1)[0]
    if len(first) > 1 and first[0] == first[-1] and first[0] in "'\"":  # a KeyError's message is its key's repr
        first = first[1:-1]
    words: list[str] = []
    for token in _outside_values(first).split():
        if any(c.isdigit() or c in "/\\=<>" for c in token):
            continue
        run = ""
        for char in token + " ":
            if char in _WORD_CHARS:
                run += char
                continue
            run = run.strip("_'-")
            if run[:1].isalpha():
                words.append(run)
            run = ""
    return words[:ISSUE_SEARCH_WORDS]


def _outside_values(text: str) -> str:
    """`text` with its quoted and bracketed parts blanked: a quote opens only where no letter is before it (the
    `'` of `doesn't` is no quote); inside brackets only brackets count, inside quotes only the closing quote."""
    out: list[str] = []
    open_: list[str] = []
    previous = " "
    for at, char in enumerate(text):
        if open_:
            closer = open_[-1]
            if char == closer and (closer != "'" or not text[at + 1 : at + 2].isalpha()):
                open_.pop()
            elif closer in ")]}" and char in "([{":
                open_.append(_CLOSERS[char])
        elif char in '([{"`' or (char == "'" and not previous.isalpha()):
            open_.append(_CLOSERS[char])
        else:
            out.append(char)
            previous = char
            continue
        out.append(" ")
        previous = char
    return "".join(out)


def _query(text: str) -> str:
    """`text` percent-encoded for a URL's query (urllib.parse costs more to import than this takes)."""
    safe = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.~"
    return "".join("+" if c == " " else c if c in safe else "".join(f"%{b:02X}" for b in c.encode()) for c in text)


def issues_search(repo: str | None, message: str) -> str | None:
    """A search of `repo`'s issues for the message's literal words (None without a repository)."""
    if not repo:
        return None
    return f"{GITHUB}/{repo}/issues?q={_query(' '.join(['is:issue', *message_words(message)]))}"


def new_command(repo: str, ref: str, path: str, line: int | None, message: str, error_class: str | None = None) -> str:
    """`leafexplain new` prefilled from where a library raised an error: its repository, the commit (a full SHA as
    it is; a tag as the commit git says it names, `git ls-remote` asked in the command itself, since a record's
    commit is a full SHA and nothing here goes online), the file, the line and the message."""
    if len(ref) == 40 and all(c in "0123456789abcdef" for c in ref):
        commit = ref
    else:  # an annotated tag's commit is its `^{}` line, listed after the tag's own: the last line either way
        tag = shell_word(f"refs/tags/{ref}")
        peeled = shell_word(f"refs/tags/{ref}^{{}}")
        commit = f'"$(git ls-remote {GITHUB}/{repo} {tag} {peeled} | tail -n 1 | cut -f 1)"'
    words = ["leafexplain new", f"--repo {shell_word(repo)}", f"--commit {commit}", f"--path {shell_word(path)}"]
    if line:
        words.append(f"--line {line}")
    if error_class:
        words.append(f"--class {shell_word(error_class)}")
    words.append(f"--message {shell_word(message.strip().split(chr(10), 1)[0][:300])}")
    return " ".join(words)
