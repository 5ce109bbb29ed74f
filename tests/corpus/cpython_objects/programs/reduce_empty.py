import functools, operator

print(functools.reduce(operator.mul, []))
