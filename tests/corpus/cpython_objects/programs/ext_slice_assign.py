grid = list(range(9))
grid[::3] = [0, 0]
