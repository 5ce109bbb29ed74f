orders = [("apple", 3, 0.5), ("pear", 2, 0.75), ("melon", 1, 2.0)]

total = 0.0
for name, qty, price in orders:
# add this line's cost
total += qty * price

print(f"order total: {total:.2f}")
