# record: d8601bc3b60b76a8
import torch

imgs = torch.randn(10, 1, 10, 10)
flat = imgs.view(-1, 784)
