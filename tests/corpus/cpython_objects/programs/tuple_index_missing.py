MODES = ("train", "val")
print(MODES.index("test"))
