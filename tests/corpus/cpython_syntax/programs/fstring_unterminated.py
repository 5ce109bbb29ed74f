names = ['x']
print(f"{', '.join(names) + '!}")
