"""Reads a config that turned out empty: JSONDecodeError with 3.11 carets."""

import json


def load_config(text: str) -> dict:
    return json.loads(text)


load_config("")
