# record: e3be5f0cb2eaea0b
import torch

# On a GPU machine the classic case is a CUDA input with a CPU model.
# On CPU, a complex input against real weights reaches the same check.
conv = torch.nn.Conv2d(1, 4, 3, bias=False)
conv(torch.ones(1, 1, 8, 8, dtype=torch.complex64))
