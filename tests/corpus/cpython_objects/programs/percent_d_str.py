size = "512"
print("buffer: %d bytes" % size)
