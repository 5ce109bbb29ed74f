# record: 5e330fa9f98d6d98
import json

hparams = {"lr": 0.01, "batch_size": 32}
text = str(hparams)
restored = json.loads(text)
print(restored)
