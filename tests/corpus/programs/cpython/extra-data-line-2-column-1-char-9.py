# record: 3181b5fe579b131b
import json

log = '{"epoch": 1, "loss": 0.9}\n{"epoch": 2, "loss": 0.7}\n'
history = json.loads(log)
print(history)
