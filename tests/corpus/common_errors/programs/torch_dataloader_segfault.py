"""A dataset that decodes samples through a small C helper (here: libc via ctypes)."""

import ctypes
import ctypes.util

import torch
from torch.utils.data import DataLoader, Dataset

libc = ctypes.CDLL(ctypes.util.find_library("c"))
libc.strlen.argtypes = [ctypes.c_char_p]


class Records(Dataset):
    def __init__(self, blobs):
        self.blobs = blobs

    def __len__(self):
        return len(self.blobs)

    def __getitem__(self, i):
        blob = self.blobs[i]
        # a missing blob is passed on as a NULL pointer
        length = libc.strlen(ctypes.c_char_p(blob) if blob is not None else ctypes.c_char_p(None))
        return torch.tensor([float(length)])


blobs = [b"alpha", b"beta", b"gamma", None, b"delta", b"epsilon", b"zeta", b"eta"]
loader = DataLoader(Records(blobs), batch_size=2, num_workers=2)
for batch in loader:
    print(batch.squeeze(1).tolist())
