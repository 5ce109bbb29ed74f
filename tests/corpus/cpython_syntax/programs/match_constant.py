HTTP_OK = 200
resp = 404
match resp:
    case HTTP_OK:
        print('ok')
    case _:
        print('error')
