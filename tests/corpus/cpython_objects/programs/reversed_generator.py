squares = (n * n for n in range(5))
for s in reversed(squares):
    print(s)
