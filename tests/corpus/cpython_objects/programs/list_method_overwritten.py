stack = [1, 2]
stack.pop = None
