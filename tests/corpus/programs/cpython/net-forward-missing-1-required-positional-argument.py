# record: e4aef5eae51dace4
class Scaler:
    def __init__(self, factor):
        self.factor = factor

    def apply(self, value):
        return value * self.factor


scaler = Scaler
print(scaler.apply(10))
