records = [('a', 1)]
for key, str(value) in records:
    print(key, value)
