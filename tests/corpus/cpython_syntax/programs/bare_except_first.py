try:
    open('missing.txt')
except:
    print('failed')
except FileNotFoundError:
    print('not found')
