import json


def load_config(text):
    return json.loads(text)
