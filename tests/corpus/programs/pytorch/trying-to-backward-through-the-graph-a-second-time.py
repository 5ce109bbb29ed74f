# record: f5be4f66a7318ac7
import torch

w = torch.ones(3, requires_grad=True)
h = torch.zeros(3)
for step in range(2):
    h = torch.tanh(h + w)
    h.sum().backward()
