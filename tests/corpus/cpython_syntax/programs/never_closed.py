result = max(
    [3, 1, 2],
    key=abs
