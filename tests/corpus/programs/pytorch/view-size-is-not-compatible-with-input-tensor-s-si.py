# record: 4b364c61a4c2f59e
import torch

x = torch.randn(2, 3, 4)
y = x.transpose(1, 2).view(2, -1)
