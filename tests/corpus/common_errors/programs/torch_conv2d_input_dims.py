import torch
from torch import nn


class SmallCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 16, kernel_size=3, padding=1),
            nn.ReLU(),
            nn.MaxPool2d(2),
        )
        self.head = nn.Linear(16 * 16 * 16, 10)

    def forward(self, x):
        return self.head(self.features(x).flatten(1))


model = SmallCNN().eval()
batch = torch.rand(8, 3, 32, 32)  # already a batch from the loader

with torch.no_grad():
    # add the batch dimension
    preds = model(batch.unsqueeze(0)).argmax(dim=1)
print(preds)
