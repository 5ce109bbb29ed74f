class Shape:
    pass


class Circle(Shape):
    pass


shapes = [Circle(), Circle()]
print(all(issubclass(s, Shape) for s in shapes))
