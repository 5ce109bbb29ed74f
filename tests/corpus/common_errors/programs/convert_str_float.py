import csv
import io

# what the shop's export looks like
EXPORT = """sku;price;stock
A-100;4.99;12
B-220;12,50;3
C-310;0.89;140
"""

total = 0.0
for row in csv.DictReader(io.StringIO(EXPORT), delimiter=";"):
    total += float(row["price"]) * int(row["stock"])
print(f"stock value: {total:.2f}")
