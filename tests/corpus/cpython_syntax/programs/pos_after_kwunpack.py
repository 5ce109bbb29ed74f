def connect(host, port=5432):
    return host, port

opts = {'port': 1}
connect(**opts, 'db')
