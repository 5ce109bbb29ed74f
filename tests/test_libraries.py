"""What leafexplain knows of the libraries: which frames are a library's, wherever the library sits."""

from __future__ import annotations

import pytest

from leafexplain.extract import events_in, finish
from tests.conftest import OUTPUTS

HOME = "/tmp/leafexplain-corpus/registry/.cargo/"  # cargo's home in the real run below


@pytest.mark.parametrize(
    "home",
    [
        HOME,
        "/usr/local/cargo/",  # CARGO_HOME in the rust Docker images
        "C:\\Users\\ana\\.cargo\\",  # Windows, its own separator throughout the crate's path
    ],
)
def test_a_registry_crate_is_a_library_wherever_cargo_keeps_its_home(home: str) -> None:
    """A real `cargo run` whose panic is raised in a registry crate: the user's frame is the program's own line
    that called it, whether cargo's home is `~/.cargo`, a Docker image's or a Windows user's."""
    text = (OUTPUTS / "rust" / "cargo-run-registry-crate-backtrace.txt").read_text(encoding="utf-8")
    if home != HOME:
        lines = []
        for line in text.split("\n"):
            if HOME in line:
                at = line.index(HOME)
                rest = line[at + len(HOME) :]
                rest = rest.replace("/", "\\") if "\\" in home else rest
                line = line[:at] + home + rest
            lines.append(line)
        text = "\n".join(lines)
    (event,) = finish(events_in(text))
    assert event.location is not None and "gadgets-0.3.1" in event.location.file
    assert event.user_frame is not None
    assert (event.user_frame.file, event.user_frame.line) == ("./src/main.rs", 6)


def test_the_new_command_shown_for_a_release_runs_as_printed(tmp_path) -> None:
    """The `leafexplain new` command a view shows for a library's release asks git for the commit its tag names
    (a record's commit is a full SHA): run by a shell, as a user would paste it, it writes the record. A stand-in
    `git` answers as `git ls-remote` does for an annotated tag (the tag object, then the commit it points at)."""
    import os
    import shutil
    import subprocess
    import sys

    from leafexplain.libraries import new_command

    commit = "cf30153c" + "0" * 32
    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / "git").write_text(
        f"#!/bin/sh\nprintf '%s\\trefs/tags/v2.13.0\\n%s\\trefs/tags/v2.13.0^{{}}\\n' {'1' * 40} {commit}\n"
    )
    (fake / "git").chmod(0o755)
    command = new_command(
        "pytorch/pytorch", "v2.13.0", "torch/_tensor.py", 691, "cannot register a hook on a tensor", "RuntimeError"
    )
    leafexplain = shutil.which("leafexplain") or f"{sys.executable} -m leafexplain"
    command = command.replace("leafexplain new", f"{leafexplain} new", 1)
    done = subprocess.run(
        ["sh", "-c", command],
        capture_output=True,
        text=True,
        env={**os.environ, "PATH": f"{fake}{os.pathsep}{os.environ['PATH']}"},
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert commit in done.stdout and '"torch/_tensor.py"' in done.stdout
    # A full SHA is written as it is.
    assert f"--commit {commit} " in new_command("a/b", commit, "x.py", 3, "boom")


@pytest.mark.parametrize(
    ("place", "repo"),
    [
        ("burn\\burn-compute\\src\\compute.rs", "tracel-ai/burn"),  # a Windows checkout of burn before 0.11
        ("/home/u/burn/crates/burn-wgpu/src/lib.rs", "tracel-ai/burn"),
        (
            "/home/u/.cargo/registry/src/index.crates.io-6f17d22bba15001f/cubecl-runtime-0.6.0/src/base.rs",
            "tracel-ai/cubecl",
        ),
        ("C:\\Users\\ana\\.cargo\\registry\\src\\index.crates.io-1\\burn-core-0.13.2\\src\\lib.rs", "tracel-ai/burn"),
    ],
)
def test_a_panics_place_names_its_library_whatever_the_separator(place: str, repo: str) -> None:
    from leafexplain.libraries import library_hints
    from leafexplain.models import ErrorEvent, Frame

    hints = library_hints(ErrorEvent("rust", "panic", "boom", location=Frame(place, 1, 5)))
    assert repo in hints and len(hints) == 1, hints
