# record: 1a5e6e7b6b9c6590
import argparse
import io

import torch

buf = io.BytesIO()
torch.save({"args": argparse.Namespace(lr=0.1), "w": torch.ones(2)}, buf)
buf.seek(0)
ckpt = torch.load(buf)
