class Pixel:
    __slots__ = ("r", "g", "b")
    r = 0
