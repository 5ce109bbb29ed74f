# record: cdddae6380adb6fb
def train(model_name, epochs=1, learning_rate=0.1):
    return f"{model_name}: {epochs} epochs at {learning_rate}"


print(train("mlp", epochs=3, lr=0.01))
