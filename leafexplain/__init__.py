"""leafexplain: explain Rust panics and Python tracebacks from the text a failing run printed."""

__version__ = "0.1.0"


def install() -> None:
    """Explain uncaught exceptions after their traceback (the hook is imported only when asked for)."""
    from leafexplain.hook import install as _install

    _install()
