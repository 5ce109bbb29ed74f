import io

import numpy as np
import torch
from torch import nn

CSV = io.StringIO("5.1,3.5,1.4,0.2\n6.2,2.9,4.3,1.3\n7.7,3.0,6.1,2.3\n5.0,3.4,1.5,0.2\n")
table = np.loadtxt(CSV, delimiter=",")
inputs = torch.tensor(table)

model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 3))
logits = model(inputs)
print(logits.argmax(dim=1))
