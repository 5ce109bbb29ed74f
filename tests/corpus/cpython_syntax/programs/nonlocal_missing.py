def outer():
    def inner():
        nonlocal hits
        hits += 1
    return inner
