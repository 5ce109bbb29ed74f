def checksum(payload):
    return int.from_bytes(byteorder="little") % 255


print(checksum(b"\x01\x02"))
