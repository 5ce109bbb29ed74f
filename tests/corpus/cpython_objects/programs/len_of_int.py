n = 12345
print(len(n))
