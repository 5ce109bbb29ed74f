"""Where a Rust event was raised in a crate: cargo's registry (`~/.cargo/registry/src/…/crate-x.y.z/`), git
checkouts (`~/.cargo/git/checkouts/…`) and the toolchain's rust-src, read when the folder holds the crate's
`Cargo.toml`; else what the path in the text says (the crate, its version or commit)."""

from __future__ import annotations

from leafexplain.locate.files import LocalPaths
from leafexplain.models import ErrorEvent, Raised


def rust_raised(event: ErrorEvent, paths: LocalPaths) -> Raised | None:
    """The crate, version, raising lines and links of a Rust event; None when no frame or place is a crate's."""
    return None
