import time


def train(num_epochs):
    for epoch in range(1, num_epochs + 1):
        time.sleep(0.01)
        loss = 1.0 / epoch
        print("epoch " + epoch + "/" + str(num_epochs) + " loss=" + f"{loss:.3f}")


train(3)
