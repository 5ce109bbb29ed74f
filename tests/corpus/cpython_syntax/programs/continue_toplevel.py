lines = ['a', '']
line = lines[1]
if not line:
    continue
