# record: eb3484cd1b492101
import torch

emb = torch.nn.Embedding(10, 4)
ids = torch.tensor([1, 5, 10])
emb(ids)
