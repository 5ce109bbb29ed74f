done = 7
print("progress %d%" % done)
