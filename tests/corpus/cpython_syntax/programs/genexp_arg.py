names = ['b', 'a']
print(sorted(n.upper() for n in names, reverse=True))
