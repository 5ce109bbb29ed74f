# record: 322230b63ab9ff2d
import torch

w = torch.ones(3, requires_grad=True)
(w * 2).sum().backward()
w -= 0.1 * w.grad
