tags = {"a", "b"}
for t in tags:
    tags.add(t.upper())
