name = 'x'
print 'hello', name
