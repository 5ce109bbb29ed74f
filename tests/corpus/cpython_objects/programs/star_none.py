def plot(*points):
    return len(points)


def load_points(name):
    if name == "empty":
        return None
    return [(0, 0)]


print(plot(*load_points("empty")))
