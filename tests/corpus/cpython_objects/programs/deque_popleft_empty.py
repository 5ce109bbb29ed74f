from collections import deque

jobs = deque()
jobs.popleft()
