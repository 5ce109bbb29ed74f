inventory = []


def restock(item, qty):
    inventory.append(item, qty)


restock("bolts", 40)
