lo, hi: float = 0.0, 1.0
print(lo, hi)
