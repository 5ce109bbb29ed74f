import json

node = {"id": 1}
node["self"] = node
print(json.dumps(node))
