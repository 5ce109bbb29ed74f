epoch = 3
print(f'epoch {} done')
