# record: 99ef82d82dc061c7
import torch

# On a GPU this would be device="cuda"; the meta device hits the same device check on CPU.
out = torch.empty(3, device="meta")
arr = out.numpy()
