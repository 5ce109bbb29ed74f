ages = {"ana": 3}
print(ages["bo"])
