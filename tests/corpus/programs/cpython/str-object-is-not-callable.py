# record: cb01d23b306efb8d
values = [3, 4, 5]
sum = 0
for v in values:
    sum += v
mean = sum(values) / len(values)
print(mean)
