class Vec:
    def __init__(self, x, y):
        self.x, self.y = x, y

    def __str__(self):
        return (self.x, self.y)


print(Vec(1, 2))
