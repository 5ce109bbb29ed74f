"""`leafexplain.api`: the api for embedding, at its public import path (the code is in `integrations/api.py`)."""

from leafexplain.integrations.api import explain, explain_chunks, load_matcher, render

__all__ = ["explain", "explain_chunks", "load_matcher", "render"]
