args = ['a', 'b']
print((*args))
