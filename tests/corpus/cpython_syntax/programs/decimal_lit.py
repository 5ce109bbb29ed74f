learning_rate = 1e-3x
