import random

print(random.sample(range(4), 6))
