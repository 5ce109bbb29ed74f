"""The version of leafexplain, in one place: the build reads it, and so does every output that names it."""

__version__ = "0.1.0"
