# record: 7315bac0e2cb04d8
import torch

x = torch.randn(4, requires_grad=True)
loss = (x - 1) ** 2
loss.backward()
