from collections import deque

buf = deque([1, 2], maxlen=5)
print(buf[4])
