def by_length(a, b):
    return len(a) - len(b)


words = ["pear", "fig", "banana"]
print(sorted(words, cmp=by_length))
