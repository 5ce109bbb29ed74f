from collections import deque

history = deque(range(10), maxlen=10)
print(history[:3])
