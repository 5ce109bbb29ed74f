prices = {"apple": 1.2, "pear": 0.8}


def cheapest(table):
    return min(table.keys(1))


print(cheapest(prices))
