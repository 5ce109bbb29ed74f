print(type("5", str))
