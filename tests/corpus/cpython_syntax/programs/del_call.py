users = {'bob': 1}
del users.pop('bob')
