# record: 0163ff7bbda93dae
import re

line = "step=10 loss=0.25"
match = re.search(r"acc=([0-9.]+)", line)
print(match.group(1))
