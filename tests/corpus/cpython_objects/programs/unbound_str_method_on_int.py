ids = ["a1", "b2", 3]
print(list(map(str.upper, ids)))
