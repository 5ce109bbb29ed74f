import json
import sys

manifest = {
    "name": "image-classifier",
    "version": "0.3.1",
    "labels": {"cat", "dog", "bird"},
    "input_size": [224, 224],
}

json.dump(manifest, sys.stdout, indent=2)
print()
