cache = {}
key, value = cache.popitem()
