# record: 4dc0d14461cb6a3a
import torch
import torch.nn.functional as F

feat = torch.randn(32, 16, 2, 2)
logits = torch.nn.Linear(32, 10)(feat.view(-1, 32))
F.cross_entropy(logits, torch.randint(0, 10, (32,)))
