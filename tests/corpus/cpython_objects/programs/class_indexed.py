class Registry:
    def __init__(self):
        self.items = {"relu": max}

    def __getitem__(self, key):
        return self.items[key]


act = Registry["relu"]
