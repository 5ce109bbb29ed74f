# record: 264ef8b11cfe434c
import json
import pathlib

path = pathlib.Path("/tmp/leafexplain_empty_config.json")
path.write_text("")
with path.open() as f:
    config = json.load(f)
print(config)
