# record: 20a0cbca599ab44e
lines = ["img1.png 3 0.9", "img2.png 1"]
for line in lines:
    path, label, confidence = line.split()
    print(path, label, confidence)
