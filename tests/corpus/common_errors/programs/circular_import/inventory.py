from reports import format_report


class Warehouse:
    def __init__(self, name):
        self.name = name
        self.stock = {}

    def add(self, item, qty):
        self.stock[item] = self.stock.get(item, 0) + qty

    def report(self):
        return format_report(self)
