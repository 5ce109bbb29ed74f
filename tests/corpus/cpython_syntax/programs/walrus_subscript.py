counts = {}
if (counts['a'] := 1) > 0:
    print(counts)
