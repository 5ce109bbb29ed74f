queue = [1, 2]
while item = queue.pop():
    print(item)
