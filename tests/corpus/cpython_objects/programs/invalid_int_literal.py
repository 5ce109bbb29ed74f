print(int("3.0"))
