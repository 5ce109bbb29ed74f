def header(columns):
    return " | ".join(columns)


print(header(5))
