n = 5
print(f'{n  # count}')
