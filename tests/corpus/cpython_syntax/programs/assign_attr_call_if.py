name = 'x'
if name.lower() = 'x':
    print('match')
