import json

edges = {("a", "b"): 1.5}
print(json.dumps(edges))
