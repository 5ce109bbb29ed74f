def clamp(value, /, low=0, high=1):
    return max(low, min(high, value))


print(clamp(value=1.7))
