import json

print(json.dumps({"ratio": float("inf")}, allow_nan=False))
