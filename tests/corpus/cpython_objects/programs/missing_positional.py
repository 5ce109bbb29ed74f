class Account:
    def deposit(self, amount, note):
        return amount


Account().deposit(10)
