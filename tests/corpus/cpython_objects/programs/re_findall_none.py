import re

profile = {"bio": None}
print(re.findall(r"#\w+", profile["bio"]))
