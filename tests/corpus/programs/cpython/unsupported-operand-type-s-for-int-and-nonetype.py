# record: 943768c2aa10da0e
readings = [12, 15, None, 9]
total = sum(readings)
print(total)
