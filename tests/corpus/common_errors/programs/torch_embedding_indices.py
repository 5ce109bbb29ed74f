import numpy as np
import torch
from torch import nn

vocab = {"<pad>": 0, "the": 1, "cat": 2, "sat": 3, "on": 4, "mat": 5}
sentences = [["the", "cat", "sat"], ["on", "the", "mat"]]

token_ids = np.zeros((len(sentences), 4))
for i, words in enumerate(sentences):
    for j, w in enumerate(words):
        token_ids[i, j] = vocab[w]


class BagOfWords(nn.Module):
    def __init__(self, vocab_size, dim=8):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, dim, padding_idx=0)
        self.out = nn.Linear(dim, 2)

    def forward(self, ids):
        return self.out(self.embed(ids).mean(dim=1))


model = BagOfWords(len(vocab))
print(model(torch.from_numpy(token_ids)))
