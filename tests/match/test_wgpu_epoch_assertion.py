"""wgpu-core's epoch assertion as pasted with Rust's old assert_eq! layout: the wgpu record comes first.

The crate wrote its own message into std's assertion form, so the place rule (match/place.py) keeps std's
assert_eq! record from answering it.
"""

from __future__ import annotations

from leafexplain import session
from leafexplain.match import Matcher

# wgpu-core 0.16's hub.rs assertion, in the panic format of Rust before 1.73 (its message after `right: ..: `).
PASTE = (
    "thread 'main' panicked at 'assertion failed: `(left == right)`\n  left: `0`,\n right: `1`: "
    "ShaderModule[0] is no longer alive', "
    "/home/u/.cargo/registry/src/github.com-1ecc6299db9ec823/wgpu-core-0.16.0/src/hub.rs:332:9\n"
)


def test_the_wgpu_epoch_record_explains_the_assertion_first(bundled_matcher: Matcher) -> None:
    report = session.explain(PASTE.encode(), bundled_matcher, pasted=True)
    [finding] = report.findings
    assert finding.matches[0].record.slug == "is-no-longer-alive"
