def parse(text):
    try:
        return int(text)
    except "ValueError":
        return None


print(parse("x"))
