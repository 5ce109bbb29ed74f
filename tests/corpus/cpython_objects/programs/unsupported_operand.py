total = None
total += 5
