import os

name = "report\x00.txt"
print(os.stat(name))
