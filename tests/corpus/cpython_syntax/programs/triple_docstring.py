def parse(text):
    '''Split text into tokens.
    return text.split()

print(parse('a b'))
