status = 404
if status == 200:
    print('ok')
elif status = 404:
    print('missing')
