import json
try:
    json.loads('{')
except json.JSONDecodeError, ValueError:
    print('bad json')
