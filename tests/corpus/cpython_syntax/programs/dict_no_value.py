payload = {'user': 'ana', 'id': , 'active': True}
