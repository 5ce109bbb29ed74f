"""leafexplain: explain Rust panics and Python tracebacks from the text a failing run printed."""

from leafexplain.version import __version__

__all__ = ["__version__", "install", "load_ipython_extension", "unload_ipython_extension"]


def install() -> None:
    """Explain uncaught exceptions after their traceback (the hook is imported only when asked for)."""
    from leafexplain.integrations.hook import install as _install

    _install()


def load_ipython_extension(ip: object) -> None:
    """`%load_ext leafexplain`: explain each failing cell under its traceback, and add `%explain` (the extension
    is imported only when IPython loads it: integrations/ipython.py)."""
    from leafexplain.integrations.ipython import load_ipython_extension as _load

    _load(ip)


def unload_ipython_extension(ip: object) -> None:
    """`%unload_ext leafexplain`: stop explaining."""
    from leafexplain.integrations.ipython import unload_ipython_extension as _unload

    _unload(ip)
