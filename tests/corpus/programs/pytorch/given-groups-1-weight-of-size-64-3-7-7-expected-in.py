# record: 1b36dfa3fb0c650a
import torch

conv = torch.nn.Conv2d(3, 8, 3)
gray = torch.randn(2, 1, 32, 32)
conv(gray)
