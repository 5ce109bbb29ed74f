# record: d2e3bf232efbfbb5
import torch

loss = torch.nn.functional.mse_loss(torch.randn(4), torch.zeros(4), reduction="none")
print(loss.item())
