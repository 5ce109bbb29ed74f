readings = [["21.5"], ["22.0"]]
values = [float(r) for r in readings]
print(values)
