scores = [1, 2]
print(scores[2])
