def load(path):
    try:
        return open(path).read()
    return None
