for 'x' in 'abc':
    print('x')
