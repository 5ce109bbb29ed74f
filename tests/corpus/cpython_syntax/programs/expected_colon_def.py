def total(items)
    return sum(items)
