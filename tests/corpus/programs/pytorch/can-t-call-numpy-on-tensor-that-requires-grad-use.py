# record: 0c65656dae2cdf8b
import torch

w = torch.randn(3, requires_grad=True)
arr = (w * 2).numpy()
