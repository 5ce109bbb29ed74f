from collections import Counter, defaultdict,
print(Counter('aab'))
