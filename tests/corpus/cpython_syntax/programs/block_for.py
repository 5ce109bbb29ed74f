for path in ['a', 'b']:
print(path)
