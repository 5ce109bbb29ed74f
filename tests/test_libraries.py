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
