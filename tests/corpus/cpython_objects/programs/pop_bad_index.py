stack = [1, 2, 3]
stack.pop(10)
