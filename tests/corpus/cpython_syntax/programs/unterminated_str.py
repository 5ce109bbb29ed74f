greeting = 'hello
print(greeting)
