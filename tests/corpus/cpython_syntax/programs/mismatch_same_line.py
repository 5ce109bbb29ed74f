values = [1, 2]
print(sum(values]))
