def load_dataset():
    features = [[0.1, 0.4], [0.3, 0.9], [0.5, 0.2], [0.8, 0.7]]
    labels = [0, 1, 1]
    return features, labels


def split(features, labels, ratio=0.75):
    assert len(features) == len(labels)
    cut = int(len(features) * ratio)
    return (features[:cut], labels[:cut]), (features[cut:], labels[cut:])


train, test = split(*load_dataset())
print(len(train[0]), "train /", len(test[0]), "test")
