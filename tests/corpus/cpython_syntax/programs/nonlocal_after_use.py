def tracker():
    seen = set()
    def add(x):
        if x in seen:
            return
        nonlocal seen
        seen = seen | {x}
    return add
