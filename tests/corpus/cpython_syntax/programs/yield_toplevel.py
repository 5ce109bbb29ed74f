for i in range(3):
    yield i
