"""Rust sources on this machine: the standard library in a toolchain's rust-src, and crates in cargo's registry."""

from __future__ import annotations

import os
import re
from functools import lru_cache

from leafexplain.libraries import (
    GITHUB,
    RUST_REPO,
    crate_parts,
    frame_hint,
    rust_variants,
    rustc_commit,
    version_from_dirs,
)
from leafexplain.locate.files import Found, LocalPaths, is_file, read_lines
from leafexplain.models import Frame, Record
from leafexplain.named import NamedTuple
from leafexplain.regex import lazy_regex
from leafexplain.safeio import open_regular, realpath

_COMMIT = lazy_regex(r"\(([0-9a-f]{7,40})")  # `rustc 1.95.0 (59807616e 2026-04-14)`
_RELEASE = lazy_regex(r"rustc-(\d+\.\d+\.\d+)")
_RUSTC_VERSION: re.Pattern[bytes] = lazy_regex(rb'\[pkg\.rustc\]\s*\nversion = "([^"\n]{1,100})"')  # type: ignore[arg-type,assignment]


class _RustSrc(NamedTuple):
    root: str  # .../lib/rustlib/src/rust
    version: str | None  # "1.95.0 (59807616e 2026-04-14)"

    @property
    def commit_prefix(self) -> str | None:
        m = _COMMIT.search(self.version or "")
        return m.group(1) if m else None


def _toolchain_version(sysroot: str) -> str | None:
    """The rustc version from rustup's channel manifest: one search through a mapped file, no subprocess."""
    manifest = os.path.join(sysroot, "lib", "rustlib", "multirust-channel-manifest.toml")
    head = b""
    try:
        import mmap  # imported where used: most runs never look for a Rust toolchain

        with open_regular(manifest) as handle, mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ) as data:
            at = data.find(b"[pkg.rustc]")
            head = data[at : at + 200] if at >= 0 else b""
    except (OSError, ValueError):
        pass
    m = _RUSTC_VERSION.match(head)
    if m:
        return m.group(1).decode("utf-8", "replace")
    release = _RELEASE.search(realpath(sysroot))
    return release.group(1) if release else None


@lru_cache(maxsize=8)
def _rust_sources(rustup_home: str, system: tuple[str, ...], rustc: str | None) -> tuple[_RustSrc, ...]:
    """Every rust-src on this machine: rustup's toolchains, the system's, and the one next to a plain `rustc`."""
    sysroots: list[str] = []
    toolchains = os.path.join(rustup_home, "toolchains")
    try:
        sysroots += sorted(os.path.join(toolchains, name) for name in os.listdir(toolchains))
    except OSError:
        pass
    if rustc:
        real = realpath(rustc)
        if os.path.basename(real).startswith("rustc"):  # not a rustup proxy
            sysroots.append(os.path.dirname(os.path.dirname(real)))
    found: list[_RustSrc] = []
    for sysroot in sysroots:
        src = os.path.join(sysroot, "lib", "rustlib", "src", "rust")
        if os.path.isdir(os.path.join(src, "library")):
            found.append(_RustSrc(src, _toolchain_version(sysroot)))
    for src in map(os.fspath, system):
        if os.path.isdir(os.path.join(src, "library")) and all(realpath(s.root) != realpath(src) for s in found):
            found.append(_RustSrc(src, _toolchain_version(os.path.dirname(os.path.dirname(os.path.dirname(src))))))
    return tuple(found)


@lru_cache(maxsize=4)
def _rustc_sysroot(rustc: str, cwd: str) -> str | None:
    """`rustc --print sysroot`: only run when several toolchains have rust-src and nothing else decides."""
    import subprocess

    try:
        done = subprocess.run([rustc, "--print", "sysroot"], capture_output=True, timeout=5, cwd=cwd, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    out = done.stdout.decode("utf-8", "replace").strip()
    return out if done.returncode == 0 and out else None


def _rustc(paths: LocalPaths) -> str | None:
    import shutil

    return shutil.which("rustc", path=paths.search_path) if paths.rustc_on_path else None


def rust_sources(paths: LocalPaths) -> tuple[tuple[str, str | None, str | None], ...]:
    """(the rust-src folder, its rustc version, the commit prefix that version names) of every toolchain here."""
    found = _rust_sources(paths.rustup_home, paths.system_rust_src, _rustc(paths))
    return tuple((s.root, s.version, s.commit_prefix) for s in found)


def rust_std(rel: str, frames: list[Frame], paths: LocalPaths) -> Found | None:
    rustc = _rustc(paths)
    sources = _rust_sources(paths.rustup_home, paths.system_rust_src, rustc)
    if not sources:
        return None
    sha = rustc_commit(frames)
    chosen = next((s for s in sources if sha and s.commit_prefix and sha.startswith(s.commit_prefix)), None)
    if chosen is None and len(sources) == 1:
        chosen = sources[0]
    if chosen is None and rustc:
        sysroot = _rustc_sysroot(rustc, paths.roots[0] if paths.roots else os.getcwd())
        src = realpath(os.path.join(sysroot, "lib", "rustlib", "src", "rust")) if sysroot else None
        chosen = next((s for s in sources if realpath(s.root) == src), None)
    if chosen is None:
        return None
    for variant in rust_variants(rel):
        file = os.path.join(chosen.root, variant)
        if is_file(file):
            exact = bool(sha and chosen.commit_prefix and sha.startswith(chosen.commit_prefix))
            url = f"{GITHUB}/{RUST_REPO}/blob/{sha}/{variant}" if sha else None
            hint = frame_hint(frames, [variant]) if exact else None
            version = f"rustc {chosen.version}" if chosen.version else None
            return Found(file, version, hint, url, exact)
    return None


def forget_listings() -> None:
    """Toolchains and crates are listed afresh by the next lookup (a long-lived process sees new ones)."""
    _rust_sources.cache_clear()
    _rustc_sysroot.cache_clear()
    _registry_versions.cache_clear()


def _version_key(version: str) -> tuple[tuple[int, ...], int, str]:
    release, _, pre = version.partition("-")
    numbers = tuple(int(n) if n.isdigit() else 0 for n in release.split("+")[0].split("."))
    return numbers, 0 if pre else 1, pre


@lru_cache(maxsize=32)
def _registry_versions(cargo_home: str, crate: str) -> tuple[tuple[str, str], ...]:
    """(version, folder) of each copy of a crate in cargo's registry, newest first."""
    found: list[tuple[str, str]] = []
    registry = os.path.join(cargo_home, "registry", "src")
    try:
        indexes = sorted(os.path.join(registry, name) for name in os.listdir(registry))
    except OSError:
        return ()
    prefix = crate + "-"
    for index in indexes:
        try:
            names = [e.name for e in os.scandir(index) if e.name.startswith(prefix)]
        except OSError:
            continue
        for name in names:
            version = name[len(prefix) :]
            if version[:1].isdigit() and "." in version:
                found.append((version, os.path.join(index, name)))
    found.sort(key=lambda pair: _version_key(pair[0]), reverse=True)
    return tuple(found)


def cargo_registry(record: Record, rel: str, frames: list[Frame], paths: LocalPaths) -> Found | None:
    parts = crate_parts(record, rel)
    if parts is None:
        return None
    crate, crate_rel = parts
    installed = _registry_versions(paths.cargo_home, crate)
    if not installed:
        return None
    family = crate.split("-")[0] + "-"
    wanted = next((v for f in frames if (v := version_from_dirs(f.file, crate))), None)
    if wanted is None:  # crates of one workspace share a version: burn-tensor-0.20.1 tells burn-autodiff's
        wanted = next((v for f in frames if (v := version_from_dirs(f.file)) and v[0].startswith(family)), None)
    chosen = next((pair for pair in installed if wanted and pair[0] == wanted[1]), None)
    note = ""
    if chosen is None:
        chosen = installed[0]
        if wanted:
            note = f"The backtrace's {crate} {wanted[1]} is not installed here; this is {chosen[0]}."
    for variant in rust_variants(crate_rel):
        file = os.path.join(chosen[1], variant)
        if is_file(file):
            hint = frame_hint(frames, [f"{crate}-{chosen[0]}/{variant}"])
            return Found(file, f"{crate} {chosen[0]}", hint, note=note)
    return None


def cargo_version(crate_dir: str) -> str | None:
    """The `version` of a crate checked out in a workspace (or the workspace's, when it inherits it). The folders
    come from a frame's text: a `Cargo.toml` there is read only as a file of that name in them, not a symlink
    to another file, and opened following nothing (`files.read_lines`)."""
    workspace = os.path.dirname(crate_dir)
    for folder, section in ((crate_dir, "[package]"), (workspace, None), (os.path.dirname(workspace), None)):
        manifest = os.path.join(realpath(folder), "Cargo.toml")
        lines = read_lines(manifest) if realpath(manifest) == manifest else None
        if not lines:
            continue
        current = ""
        for line in lines:
            stripped = line.strip()
            if stripped.startswith("["):
                current = stripped
            elif stripped.startswith("version") and current in ((section,) if section else ("[workspace.package]",)):
                value = stripped.split("=", 1)[-1].strip()
                if value.startswith('"'):
                    return value.strip('"')
    return None
