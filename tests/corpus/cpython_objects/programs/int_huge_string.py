big = "9" * 4500
print(int(big) % 7)
