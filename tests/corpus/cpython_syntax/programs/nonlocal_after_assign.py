def outer():
    n = 0
    def inner():
        n = 2
        nonlocal n
    return inner
