delimiter = ""
print("a,b".split(delimiter))
