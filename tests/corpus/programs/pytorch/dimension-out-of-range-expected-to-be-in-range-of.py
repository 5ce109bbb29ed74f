# record: a6b68bccbd1f7a6f
import torch

logits = torch.randn(5)
probs = torch.softmax(logits, dim=1)
