# settings merger written against an old tutorial
from collections import Mapping


def deep_merge(base, override):
    out = dict(base)
    for key, value in override.items():
        if isinstance(value, Mapping) and isinstance(out.get(key), Mapping):
            out[key] = deep_merge(out[key], value)
        else:
            out[key] = value
    return out


print(deep_merge({"db": {"host": "localhost", "port": 5432}}, {"db": {"port": 6543}}))
