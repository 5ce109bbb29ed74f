seen = set()
seen.pop()
