import math

score = math.inf
print(int(score))
