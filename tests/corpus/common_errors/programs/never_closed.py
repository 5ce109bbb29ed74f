import math


def circle_stats(radius):
    area = math.pi * radius**2
    circumference = 2 * math.pi * radius
    print("area: {:.2f}, circumference: {:.2f}".format(area, circumference)
    return area, circumference


for r in (1, 2.5, 10):
    circle_stats(r)
