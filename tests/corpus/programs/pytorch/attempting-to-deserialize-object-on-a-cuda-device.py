# record: 9a75dbd752607a36
import io

import torch
import torch.serialization as ser

# Simulate a checkpoint written on a GPU: record the storage location as cuda:0.
buf = io.BytesIO()
real_tag = ser.location_tag
ser.location_tag = lambda storage: "cuda:0"
torch.save({"w": torch.ones(3)}, buf)
ser.location_tag = real_tag
buf.seek(0)
torch.load(buf)  # this machine has no CUDA
