def g():
    a = 1
	return a
