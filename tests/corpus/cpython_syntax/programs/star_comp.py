batches = [[1, 2], [3, 4]]
samples = [*b for b in batches]
