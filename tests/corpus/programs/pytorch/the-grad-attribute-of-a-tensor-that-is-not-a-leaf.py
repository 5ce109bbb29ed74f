# record: ecac668b4dfd73f2
import torch

w = torch.randn(3).requires_grad_() * 0.1
(w**2).sum().backward()
print(w.grad)
