nonlocal total
total = 1
