import numpy as np
import torch
from torch import nn

rng = np.random.default_rng(42)
x_train = torch.tensor(rng.normal(size=(64, 10)), dtype=torch.float32)
y_train = torch.tensor(rng.integers(0, 4, size=64), dtype=torch.float32)

model = nn.Linear(10, 4)
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)

for epoch in range(5):
    optimizer.zero_grad()
    loss = criterion(model(x_train), y_train)
    loss.backward()
    optimizer.step()
    print(f"epoch {epoch}: loss {loss.item():.4f}")
