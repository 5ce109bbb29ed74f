words = ['a', 'bb']
lengths = [w, len(w) for w in words]
