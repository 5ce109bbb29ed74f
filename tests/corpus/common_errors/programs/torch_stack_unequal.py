import torch
from torch.utils.data import DataLoader, Dataset


class Thumbnails(Dataset):
    """Fake image folder: most images are 64x64, a few came in at other sizes."""

    sizes = [(64, 64)] * 9 + [(48, 64)] + [(64, 64)] * 6

    def __len__(self):
        return len(self.sizes)

    def __getitem__(self, idx):
        h, w = self.sizes[idx]
        return torch.rand(3, h, w), idx % 2


loader = DataLoader(Thumbnails(), batch_size=4, shuffle=False)
for step, (images, labels) in enumerate(loader):
    print(step, images.shape, labels.tolist())
