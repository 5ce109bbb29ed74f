"""Utilities."""
import sys
from __future__ import annotations
