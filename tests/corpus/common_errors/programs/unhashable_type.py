from collections import Counter

events = [
    {"user": "ana", "action": "login"},
    {"user": "bo", "action": "upload"},
    {"user": "ana", "action": "login"},
]

counts = Counter()
for event in events:
    counts[event] += 1

for event, n in counts.most_common():
    print(event, n)
