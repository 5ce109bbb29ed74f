import numpy as np
import torch

# PCA projection computed with numpy, applied to torch features
rng = np.random.default_rng(0)
samples = rng.normal(size=(200, 12))
centered = samples - samples.mean(axis=0)
_, _, vt = np.linalg.svd(centered, full_matrices=False)
projection = torch.from_numpy(vt[:3].T)  # (12, 3)

features = torch.randn(32, 12)
reduced = features @ projection
print(reduced.shape)
