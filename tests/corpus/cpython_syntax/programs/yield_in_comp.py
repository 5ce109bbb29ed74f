def pairs(xs):
    return [(yield (x, x)) for x in xs]
