row = "{name}: {score}}".format(name="ana", score=3)
print(row)
