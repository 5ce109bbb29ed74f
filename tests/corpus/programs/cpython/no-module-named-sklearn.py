# record: 2e989e60dcf924be
import json

print(json.dumps({"ok": True}))
