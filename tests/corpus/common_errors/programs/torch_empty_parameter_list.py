import torch
from torch import nn


class MLP(nn.Module):
    def __init__(self, sizes):
        super().__init__()
        self.layers = []
        for n_in, n_out in zip(sizes, sizes[1:]):
            self.layers.append(nn.Linear(n_in, n_out))

    def forward(self, x):
        for layer in self.layers[:-1]:
            x = torch.relu(layer(x))
        return self.layers[-1](x)


model = MLP([20, 64, 64, 1])
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.01)
print(optimizer)
