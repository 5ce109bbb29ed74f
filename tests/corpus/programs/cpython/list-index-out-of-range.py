# record: d506cdfe51c44b25
rows = ["id,label", "7"]
for row in rows[1:]:
    fields = row.split(",")
    print(fields[0], fields[1])
