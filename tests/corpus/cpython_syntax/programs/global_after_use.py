cache = {}

def remember(k, v):
    if k in cache:
        return
    global cache
    cache[k] = v
