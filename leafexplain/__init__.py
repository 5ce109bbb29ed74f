"""leafexplain: explain Rust panics and Python tracebacks from the text a failing run printed."""

__version__ = "0.1.0"
