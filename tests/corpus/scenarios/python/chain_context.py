"""An error while handling another: two exceptions, the first the context."""

import json

try:
    {"a": 1}["b"]
except KeyError:
    json.loads("{'single': 'quotes'}")
