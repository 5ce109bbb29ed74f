# record: 1b0f1ea93ca81030
import torch
from torch.utils.data import DataLoader

data = [torch.ones(3), torch.ones(5)]
next(iter(DataLoader(data, batch_size=2)))
