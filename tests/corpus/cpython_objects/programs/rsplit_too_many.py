path = "models/v2/weights.bin"
head, tail = path.rsplit("/", 1, True)
print(tail)
