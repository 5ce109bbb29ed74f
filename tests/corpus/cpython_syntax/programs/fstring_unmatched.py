data = [1, 2]
print(f'{data[0]]}')
