def bounds(values):
    return min(values), max(values)


b = bounds([3, 9, 1])
print(b["max"])
