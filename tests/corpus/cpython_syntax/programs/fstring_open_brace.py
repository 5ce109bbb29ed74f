rate = 0.25
print(f'rate is {rate:.1%')
