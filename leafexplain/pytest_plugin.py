"""The pytest plugin at the path its `pytest11` entry point names (the code is in `integrations/pytest_plugin.py`)."""

from leafexplain.integrations.pytest_plugin import Explainer, pytest_addoption, pytest_configure

__all__ = ["Explainer", "pytest_addoption", "pytest_configure"]
