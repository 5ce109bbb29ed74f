data = list(range(101))
half = len(data) / 2
print(data[half:])
