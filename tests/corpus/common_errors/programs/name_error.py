import random

scores = [random.randint(0, 100) for _ in range(25)]

total = 0
for s in scores:
    total += s

average = totl / len(scores)
print(f"average score: {average:.1f}")
