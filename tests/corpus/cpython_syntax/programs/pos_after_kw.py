print(sep='-', 'a', 'b')
