user = 'ana'
print(f'{{"user": "{user}"}')
