"""Where a Rust event was raised in a crate: cargo's registry (`~/.cargo/registry/src/…/crate-x.y.z/`), git
checkouts (`~/.cargo/git/checkouts/…`) and the toolchain's rust-src, read when the folder holds the crate's
`Cargo.toml`; else what the path in the text says (the crate, its version or commit).

The place is the panic's location when it lies in one of those folders, else the innermost such frame past the
panic machinery (`core::panicking`, `unwrap_failed`). A path from the text is never opened as it stands: its
part after `registry/src/` or `git/checkouts/` is looked for in this machine's cargo home (a registry crate's
version is the same files on every machine), and its part after `/rustc/<commit>/` in a toolchain's rust-src of
that commit. What is read must lie, resolved, inside that crate's folder, the folder must hold its `Cargo.toml`
as a file of its own (not a symlink), and the file is opened following no symlink (`files.read_lines`); anything
else is never opened.
"""

from __future__ import annotations

import os

from leafexplain.libraries import GITHUB, RUST_REPO, github_repo, issues_search, new_command, norm_path
from leafexplain.locate.files import USER_CONTEXT, LocalPaths, guard, read_lines, window
from leafexplain.models import ErrorEvent, Frame, Raised
from leafexplain.named import NamedTuple
from leafexplain.regex import lazy_regex
from leafexplain.safeio import inside, realpath

DOCS_RS = "https://docs.rs/crate/{crate}/{version}/source/{path}"  # docs.rs's source view, `#<line>` after it
_REGISTRY = lazy_regex(r"(?:^|/)registry/src/([^/]+)/([A-Za-z0-9_-]+?)-(\d+\.\d+\.\d+[^/]*)/(.+)$")
_CHECKOUT = lazy_regex(r"(?:^|/)git/checkouts/([^/]+)-([0-9a-f]{16})/([0-9a-f]{7,40})/(.+)$")
_RUSTC = lazy_regex(r"(?:^|/)rustc/([0-9a-f]{7,40})/(library/.+)$")
_RUST_SRC = lazy_regex(r"(?:^|/)lib/rustlib/src/rust/(library/.+)$")
# The frames a panic passes through on its way to the hook: never where it was raised.
_MACHINERY = lazy_regex(
    r"(?:^|::)(?:panicking|rust_begin_unwind|begin_panic\w*|rust_panic\w*|unwrap_failed|expect_failed"
    r"|__rust_end_short_backtrace|panic_fmt|panic_display|panic_bounds_check|assert_failed\w*)(?:::|$|<)"
)
_FN = lazy_regex(
    r"\s*(?:pub(?:\([^)]*\))?\s+)?(?:(?:const|async|unsafe|default)\s+)*(?:extern\s+\"[^\"]*\"\s+)?"
    r"fn\s+([A-Za-z_][A-Za-z0-9_]*)"
)
_GUARD = ("if ", "} else if ", "else if ", "assert!", "assert_eq!", "assert_ne!", "debug_assert", "ensure!", "while ")
_VCS_SHA = lazy_regex(r'"sha1"\s*:\s*"([0-9a-f]{40})"')
_VCS_PATH = lazy_regex(r'"path_in_vcs"\s*:\s*"([^"\\]*)"')


class _Place(NamedTuple):
    """A frame's file in one of the crate folders, as its path names it."""

    kind: str  # "registry", "checkout" or "std"
    crate: str  # the crate's name (the registry folder's, the checkout's crate folder's); `library` for std
    version: str  # x.y.z, or the commit
    rel: str  # the file inside the crate folder (registry), the checkout (checkout) or rust-src (std)
    line: int | None
    column: int | None
    index: str = ""  # the registry's index folder (`index.crates.io-…`); the checkout's `<name>-<hash>`
    given: str = ""  # the path as the text names it


# --- which frame ------------------------------------------------------------------------------------------------------


def _place_of(frame: Frame) -> _Place | None:
    path = norm_path(frame.file)
    if ".." in path.split("/"):
        return None
    at = frame.line, frame.column
    # Each regex only where its words are (a regex is compiled at its first use): most panics are the user's.
    if "registry/src/" in path and (m := _REGISTRY.search(path)):
        return _Place("registry", m.group(2), m.group(3), m.group(4), *at, m.group(1), path)
    if "git/checkouts/" in path and (m := _CHECKOUT.search(path)):
        name, commit, rel = m.group(1), m.group(3), m.group(4)
        parts = rel.split("/")
        at_src = parts.index("src") if "src" in parts else 0
        crate = parts[at_src - 1] if at_src > 0 else name  # `crates/cubecl-wgpu/src/…`; `src/…` is the checkout's
        return _Place("checkout", crate, commit, rel, *at, f"{name}-{m.group(2)}", path)
    if "rustc/" in path and (m := _RUSTC.search(path)):
        return _Place("std", "Rust std", m.group(1), m.group(2), *at, given=path)
    if "rustlib/src/" in path and (m := _RUST_SRC.search(path)):
        return _Place("std", "Rust std", "", m.group(1), *at, given=path)
    return None


def _raising_place(event: ErrorEvent) -> _Place | None:
    """The panic's location when it is a crate's; else, with no location, the innermost crate frame past the panic
    machinery (a location in your own code was raised there: no crate's)."""
    if event.location is not None:
        return _place_of(event.location)
    for frame in event.frames:  # a backtrace lists the innermost frame first
        if frame.function and _MACHINERY.search(frame.function):
            continue
        if frame.file:
            return _place_of(frame)
    return None


# --- the crate's folder on this machine -------------------------------------------------------------------------------


def _own_file(folder: str, name: str) -> str | None:
    """`folder/name` resolved, when it is a file of that folder itself (not a symlink to another)."""
    path = os.path.join(folder, name)
    return path if realpath(path) == path and os.path.isfile(path) else None


def _file_in_crate(crate_dir: str, rel: str, home: str) -> tuple[str, str] | None:
    """(the crate's resolved folder, the resolved file) when the folder lies in `home`, holds its own Cargo.toml,
    and the file, a `.rs` one, lies inside it once resolved; else None: nothing there is to be opened."""
    folder = realpath(crate_dir)
    if not inside(folder, home) or _own_file(folder, "Cargo.toml") is None or not rel.endswith(".rs"):
        return None
    real = realpath(os.path.join(folder, *rel.split("/")))
    return (folder, real) if inside(real, folder) and real != folder and os.path.isfile(real) else None


def _registry_file(place: _Place, paths: LocalPaths) -> tuple[str, str] | None:
    """The registry crate's file here: the same crate version under any index of this machine's cargo home."""
    registry = realpath(os.path.join(os.fspath(paths.cargo_home), "registry", "src"))
    try:
        indexes = sorted(os.listdir(registry))
    except OSError:
        return None
    indexes.sort(key=lambda name: name != place.index)  # the text's own index first
    for index in indexes:
        found = _file_in_crate(os.path.join(registry, index, f"{place.crate}-{place.version}"), place.rel, registry)
        if found:
            return found
    return None


def _checkout_file(place: _Place, paths: LocalPaths) -> tuple[str, str] | None:
    """The checkout's file here: inside the nearest folder above it (in the checkout) that holds a Cargo.toml."""
    checkouts = realpath(os.path.join(os.fspath(paths.cargo_home), "git", "checkouts"))
    root = os.path.join(checkouts, place.index, place.version)
    parts = place.rel.split("/")
    for cut in range(len(parts) - 1, -1, -1):
        crate_dir = os.path.join(root, *parts[:cut])
        if os.path.isfile(os.path.join(crate_dir, "Cargo.toml")):
            return _file_in_crate(crate_dir, "/".join(parts[cut:]), checkouts)
    return None


def _manifest(folder: str) -> dict[str, str]:
    """`[package]`'s name, version and repository from the crate's own Cargo.toml (a version the workspace
    gives is left out: `version.workspace = true`)."""
    lines = read_lines(os.path.join(folder, "Cargo.toml")) or ()
    found: dict[str, str] = {}
    section = ""
    for line in lines:
        text = line.strip()
        if text.startswith("["):
            section = text
        elif section == "[package]" and "=" in text:
            key, _, value = (part.strip() for part in text.partition("="))
            if key in ("name", "version", "repository") and value.startswith('"') and value.endswith('"'):
                found[key] = value[1:-1]
    return found


def _vcs_info(folder: str) -> tuple[str, str] | None:
    """(commit, folder in the repository) that `cargo publish` wrote into `.cargo_vcs_info.json`."""
    own = _own_file(folder, ".cargo_vcs_info.json")
    text = "\n".join((read_lines(own) if own else None) or ())
    sha, where = _VCS_SHA.search(text), _VCS_PATH.search(text)
    return (sha.group(1), where.group(1) if where else "") if sha else None


# --- where a crate's file is in its repository ------------------------------------------------------------------------


def _release(version: str) -> tuple[int, ...]:
    return tuple(int(n) if n.isdigit() else 0 for n in version.split("-")[0].split("+")[0].split("."))


def known_layout(crate: str, version: str) -> tuple[str, str, str] | None:
    """(repository, tag, folder) of a version of the crates the project knows (each tag read in its repository):
    burn and cubecl tag `v{version}` and keep their crates in `crates/` (burn's were at the top before 0.13),
    serde tags `v{version}` with a folder per crate, serde_json at the top, tokio `{crate}-{version}`, wgpu
    `v{version}` (`wgpu-v{version}` before 22) and its other crates `{crate}-v{version}`, each in its own folder,
    naga `naga-v{version}` (at the top before 0.14.1), ndarray `{version}` at the top."""
    if crate == "burn" or crate.startswith("burn-"):
        return "tracel-ai/burn", f"v{version}", f"{crate}/" if _release(version) < (0, 13) else f"crates/{crate}/"
    if crate == "cubecl" or crate.startswith("cubecl-"):
        return "tracel-ai/cubecl", f"v{version}", f"crates/{crate}/"
    if crate in ("serde", "serde_derive", "serde_core"):
        return "serde-rs/serde", f"v{version}", f"{crate}/"
    if crate == "serde_json":
        return "serde-rs/json", f"v{version}", ""
    if crate in ("tokio", "tokio-util", "tokio-macros", "tokio-stream", "tokio-test"):
        return "tokio-rs/tokio", f"{crate}-{version}", f"{crate}/"
    if crate == "wgpu":  # wgpu's own tag was `wgpu-v{version}` up to 0.20 (wgpu-v0.20.1), `v{version}` from 22
        return "gfx-rs/wgpu", f"v{version}" if _release(version) >= (22,) else f"wgpu-v{version}", "wgpu/"
    if crate in ("wgpu-core", "wgpu-hal", "wgpu-types"):
        return "gfx-rs/wgpu", f"{crate}-v{version}", f"{crate}/"
    if crate == "naga":  # naga moved into the wgpu repository at 0.14.1 (naga-v0.14.0 has its src/ at the top)
        return "gfx-rs/wgpu", f"naga-v{version}", "naga/" if _release(version) >= (0, 14, 1) else ""
    if crate == "ndarray":
        return "rust-ndarray/ndarray", version, ""
    return None


# A git checkout's folder is named after its repository's last part: the known ones' owners.
_CHECKOUT_REPOS = {
    "burn": "tracel-ai/burn",
    "cubecl": "tracel-ai/cubecl",
    "serde": "serde-rs/serde",
    "json": "serde-rs/json",
    "tokio": "tokio-rs/tokio",
    "wgpu": "gfx-rs/wgpu",
}


def _anchor(url: str, line: int | None) -> str:
    return f"{url}#L{line}" if line else url


def _crate_links(
    place: _Place, crate: str, version: str, repository: str | None, vcs: tuple[str, str] | None
) -> tuple[str | None, str | None, str | None]:
    """(url, url_note, repository) of a registry crate's raising line."""
    layout = known_layout(crate, version)
    declared = github_repo(repository)
    if layout is not None and declared not in (None, layout[0]):
        layout = None  # a crate named like burn's (`burn-kan`) from another repository
    if layout is not None and version == place.version:
        repo, tag, folder = layout
        return _anchor(f"{GITHUB}/{repo}/blob/{tag}/{folder}{place.rel}", place.line), None, repo
    repo = layout[0] if layout else declared
    if repo and vcs:
        sha, folder = vcs
        folder = f"{folder.strip('/')}/" if folder.strip("/") else ""
        return _anchor(f"{GITHUB}/{repo}/blob/{sha}/{folder}{place.rel}", place.line), None, repo
    if repo:
        # Worded as raised_python's note for a distribution whose layout is not known.
        note = f"where {place.rel} lies in {repo} is not known here; the link is the tag v{version}, its usual name"
        return f"{GITHUB}/{repo}/tree/v{version}", note, repo
    return None, None, None


def rust_new_command(url: str | None, repo: str | None, line: int | None, message: str) -> str | None:
    """`leafexplain new` prefilled from the raising line's link (its repository, commit or tag, path in the
    repository and line) and the message; None without a link to a line."""
    if not url or not repo or not line or "/blob/" not in url:
        return None
    ref, _, rest = url.split("/blob/", 1)[1].partition("/")
    return new_command(repo, ref, rest.split("#", 1)[0], line, message)


# --- the lines -------------------------------------------------------------------------------------------------------


def rust_function(lines: tuple[str, ...], line: int) -> tuple[str | None, str | None]:
    """(the enclosing `fn`'s name, the first paragraph of its `///` doc comment) of line `line`."""
    depth = len(lines[line - 1]) - len(lines[line - 1].lstrip())
    for n in range(line - 1, 0, -1):
        text = lines[n - 1]
        indent = len(text) - len(text.lstrip())
        if not text.strip() or indent > depth or text.lstrip().startswith("//"):
            continue
        found = _FN.match(text)
        if found and indent < depth:
            return found.group(1), _doc_comment(lines, n)
        depth = min(depth, indent) if text.strip() not in ("}", "{") else depth
    return None, None


def _doc_comment(lines: tuple[str, ...], fn_line: int) -> str | None:
    above: list[str] = []
    for n in range(fn_line - 1, 0, -1):
        text = lines[n - 1].strip()
        if text.startswith("#[") or text.startswith("#!["):
            continue  # attributes between the doc comment and the fn
        if not text.startswith("///"):
            break
        above.append(text[3:].strip())
    paragraph: list[str] = []
    for text in reversed(above):
        if not text:
            if paragraph:
                break
            continue
        paragraph.append(text)
    return " ".join(paragraph) or None


def _with_lines(raised: Raised, real: str, place: _Place) -> Raised:
    """The raising line and the lines around it, read from `real`; `changed` when the file no longer reaches the
    frame's line and column (nothing of it shown then)."""
    lines = read_lines(real)
    line = place.line
    if lines is None or not line:
        return raised
    if line > len(lines) or (place.column and place.column > len(lines[line - 1]) + 1):
        return raised._replace(changed=True)
    start, shown = window(lines, line, USER_CONTEXT)
    function, docstring = rust_function(lines, line)
    return raised._replace(
        line=line,
        start=start,
        lines=shown,
        function=function,
        docstring=docstring,
        condition=guard(lines, line, start, _GUARD),
    )


# --- the three kinds --------------------------------------------------------------------------------------------------


def rust_raised(event: ErrorEvent, paths: LocalPaths) -> Raised | None:
    """The crate, version, raising lines and links of a Rust event; None when no frame or place is a crate's."""
    place = _raising_place(event)
    if place is None:
        return None
    if place.kind == "std":
        return _std_raised(event, place, paths)
    if place.kind == "checkout":
        return _checkout_raised(event, place, paths)
    return _registry_raised(event, place, paths)


def _registry_raised(event: ErrorEvent, place: _Place, paths: LocalPaths) -> Raised:
    found = _registry_file(place, paths)
    manifest = _manifest(found[0]) if found else {}
    crate = manifest.get("name") or place.crate
    version = manifest.get("version") or place.version
    vcs = _vcs_info(found[0]) if found else None
    url, note, repo = _crate_links(place, crate, version, manifest.get("repository"), vcs)
    docs = DOCS_RS.format(crate=crate, version=version, path=place.rel) + (f"#{place.line}" if place.line else "")
    raised = Raised(
        library=crate,
        version=version,
        line=place.line,
        url=url,
        url_note=note,
        issues_url=issues_search(repo, event.message),
        docs_url=docs,
        new_command=rust_new_command(url, repo, place.line, event.message),
        language="rust",
    )
    return _with_lines(raised._replace(path=found[1]), found[1], place) if found else raised


def _checkout_raised(event: ErrorEvent, place: _Place, paths: LocalPaths) -> Raised:
    found = _checkout_file(place, paths)
    manifest = _manifest(found[0]) if found else {}
    repo = github_repo(manifest.get("repository")) or _CHECKOUT_REPOS.get(place.index.rsplit("-", 1)[0])
    # The checkout is the repository at that commit: its path there is the path in the checkout.
    url = _anchor(f"{GITHUB}/{repo}/blob/{place.version}/{place.rel}", place.line) if repo else None
    raised = Raised(
        library=manifest.get("name") or place.crate,
        version=place.version,
        line=place.line,
        url=url,
        issues_url=issues_search(repo, event.message),
        new_command=rust_new_command(url, repo, place.line, event.message),
        language="rust",
    )
    return _with_lines(raised._replace(path=found[1]), found[1], place) if found else raised


def _std_raised(event: ErrorEvent, place: _Place, paths: LocalPaths) -> Raised:
    """Rust's standard library: read from a toolchain's rust-src of the commit the text names (or, for a path in
    a rust-src here, that one)."""
    from leafexplain.locate.rust import rust_sources

    commit, version, real = place.version, place.version or None, None
    for root, toolchain, prefix in rust_sources(paths):
        base = realpath(root)
        local = not commit and inside(realpath(place.given), base)
        if local or (commit and prefix and commit.startswith(prefix)):
            file = realpath(os.path.join(base, *place.rel.split("/")))
            if inside(file, base) and os.path.isfile(file):
                real, version, commit = file, toolchain or version, commit or prefix or ""
            break
    url = _anchor(f"{GITHUB}/{RUST_REPO}/blob/{commit}/{place.rel}", place.line) if commit else None
    raised = Raised(
        library="Rust std",
        version=version,
        line=place.line,
        url=url,
        issues_url=issues_search(RUST_REPO, event.message),
        new_command=rust_new_command(url, RUST_REPO, place.line, event.message),
        language="rust",
    )
    return _with_lines(raised._replace(path=real), real, place) if real else raised
