# record: 352eddc51e85abc4
rows = ["cat,1", "dog,2.0"]
labels = []
for row in rows:
    name, label = row.split(",")
    labels.append(int(label))
print(labels)
