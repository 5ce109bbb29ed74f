def check(n):
    if n < 0:
        raise "negative value"
    return n


check(-1)
