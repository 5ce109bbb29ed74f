"""wgpu-core's epoch assertion as pasted with Rust's old assert_eq! layout: the wgpu record should come first."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

# wgpu-core 0.16's hub.rs assertion, in the panic format of Rust before 1.73 (its message after `right: ..: `).
PASTE = (
    "thread 'main' panicked at 'assertion failed: `(left == right)`\n  left: `0`,\n right: `1`: "
    "ShaderModule[0] is no longer alive', "
    "/home/u/.cargo/registry/src/github.com-1ecc6299db9ec823/wgpu-core-0.16.0/src/hub.rs:332:9\n"
)


@pytest.mark.xfail(
    strict=True,
    reason="the record's pattern opens with a placeholder (`{}[{}] is no longer alive`), whose value takes the "
    "assertion's own `assertion failed: (left == right) ...` text, so std's assert_eq! record is ranked as the "
    "payload inside it and the wgpu record comes third, as its wrapper",
)
def test_the_wgpu_epoch_record_explains_the_assertion_first(tmp_path) -> None:
    paste = tmp_path / "paste.txt"
    paste.write_text(PASTE)
    done = subprocess.run(
        [sys.executable, "-m", "leafexplain", "--format", "json", "--file", str(paste)],
        capture_output=True,
        text=True,
        check=False,
    )
    [event] = json.loads(done.stdout)["events"]
    assert event["matches"][0]["slug"] == "is-no-longer-alive"
