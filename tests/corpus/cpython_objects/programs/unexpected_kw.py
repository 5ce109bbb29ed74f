def connect(host, port=80):
    return host, port


connect("x", timeout=3)
