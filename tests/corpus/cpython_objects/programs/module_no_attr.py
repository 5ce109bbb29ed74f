import math

print(math.tau2)
