row = [1, 2]
first = *row
