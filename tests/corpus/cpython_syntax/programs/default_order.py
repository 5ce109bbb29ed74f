def train(model, epochs=10, optimizer):
    return model, epochs, optimizer
