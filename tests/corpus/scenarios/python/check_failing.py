"""Failing tests for pytest output in the corpus (named check_* so our own suite skips it)."""

import json


def test_parses_config():
    assert json.loads("") == {}


def test_counts():
    assert len([1, 2]) == 3


def test_ratio():
    total, parts = 10, 0
    assert total / parts == 1


def test_passes():
    assert True
