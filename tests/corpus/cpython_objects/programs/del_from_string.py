word = "colour"
del word[4]
print(word)
