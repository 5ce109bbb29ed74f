def plot(x, y, title, y):
    pass
