import json
print(json.dumps({'a': 1}, indent=2, sort_keys=True, indent=4))
