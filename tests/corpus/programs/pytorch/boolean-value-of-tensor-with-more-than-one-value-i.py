# record: e79a775d05589f19
import torch

x = torch.tensor([0.5, -1.0, 2.0])
if x > 0:
    print("positive")
