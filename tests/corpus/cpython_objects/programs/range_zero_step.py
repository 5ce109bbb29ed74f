def pages(total, per_page):
    return list(range(0, total, per_page))


print(pages(10, 0))
