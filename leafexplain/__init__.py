"""leafexplain: explain Rust panics and Python tracebacks from the text a failing run printed."""

from leafexplain.version import __version__

__all__ = ["__version__", "install"]


def install() -> None:
    """Explain uncaught exceptions after their traceback (the hook is imported only when asked for)."""
    from leafexplain.integrations.hook import install as _install

    _install()
