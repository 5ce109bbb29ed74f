# record: 3a68c3e7a7f558e0
import pathlib

path = pathlib.Path("/tmp/leafexplain_utf16_labels.txt")
path.write_bytes("cat\ndog\n".encode("utf-16"))
with open(path, encoding="utf-8") as f:
    labels = f.read().splitlines()
print(labels)
