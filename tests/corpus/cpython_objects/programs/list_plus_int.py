queue = ["a", "b"]
queue = queue + 3
