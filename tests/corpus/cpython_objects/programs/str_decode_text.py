def to_text(data):
    return str(data, encoding="utf-8")


print(to_text("already text"))
