import random

print(random.choice([]))
