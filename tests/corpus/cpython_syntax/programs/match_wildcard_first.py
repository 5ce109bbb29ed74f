cmd = 'quit'
match cmd.split():
    case _:
        print('unknown')
    case ['quit']:
        print('bye')
