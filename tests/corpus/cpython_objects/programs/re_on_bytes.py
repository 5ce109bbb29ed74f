import re

payload = "id=42".encode()
m = re.match(r"id=(\d+)", payload)
print(m.group(1))
