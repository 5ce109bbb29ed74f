def make_report(rows):
    def line():
        return f"{len(rows)} rows, header={header}"

    text = line()
    header = rows[0]
    return text


print(make_report(["id,name"]))
