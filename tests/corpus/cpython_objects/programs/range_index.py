slots = range(3)
print(slots[3])
