import json


def make_client(url, timeout):
    return url, timeout


raw = json.loads('[["url", "http://x"], ["timeout", 3]]')
print(make_client(**raw))
