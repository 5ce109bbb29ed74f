price = "19.99"
print(f"total: {price:.2f}")
