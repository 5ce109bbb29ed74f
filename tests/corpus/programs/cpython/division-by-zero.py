# record: 5c3c2115efdd83bd
def mean(values):
    return sum(values) / len(values)


batches = [b for b in range(10) if b > 100]
print(mean(batches))
