header = b'\x89PNG' '\r\n'
