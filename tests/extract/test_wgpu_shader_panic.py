"""wgpu's shader-module panics as pasted (tracel-ai/burn#3914): one panic, its `Caused by:` chain kept whole."""

from __future__ import annotations

from leafexplain.extract import events_in, finish

# wgpu 26's shader validation panic: naga's report opens with a line of four spaces after `In
# Device::create_shader_module`, then the message and its source excerpt.
BURN_3914 = (
    "thread 'main' panicked at /home/u/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/"
    "wgpu-26.0.1/src/backend/wgpu_core.rs:1023:30:\n"
    "wgpu error: Validation Error\n"
    "\n"
    "Caused by:\n"
    "  In Device::create_shader_module\n"
    "    \n"
    "Shader validation error: Entry point elemwise_fuse at Compute is invalid\n"
    "   ┌─ :61:12\n"
    "   │\n"
    "61 │ let l_22 = buffer_1_global[l_21];\n"
    "   │            ^^^^^^^^^^^^^^^^^^^^^ naga::ir::Expression [85]\n"
    "\n"
    "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n"
)


def test_shader_validation_report_stays_in_the_panic() -> None:
    events = finish(events_in(BURN_3914))
    assert len(events) == 1
    [event] = events
    assert "Shader validation error: Entry point elemwise_fuse" in event.message
    assert event.location is not None and event.location.line == 1023
