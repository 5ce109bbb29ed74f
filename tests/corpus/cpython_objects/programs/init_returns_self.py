class Cart:
    def __init__(self):
        self.items = []
        return self


cart = Cart()
