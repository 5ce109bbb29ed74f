# Saved by an old editor in Latin-1.
owner = "José"
print(owner)
