# record: 10e9535480f4a94f
scores = {"a": 0.1, "b": 0.9, "c": 0.5}
for name in scores:
    if scores[name] < 0.5:
        del scores[name]
print(scores)
