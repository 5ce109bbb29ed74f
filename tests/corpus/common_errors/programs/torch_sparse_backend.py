"""One graph-convolution step on a small graph stored as a sparse adjacency matrix."""

import torch

edges = torch.tensor([[0, 1, 1, 2, 3, 4], [1, 0, 2, 1, 4, 3]])
num_nodes = 5
adj = torch.sparse_coo_tensor(edges, torch.ones(edges.shape[1]), (num_nodes, num_nodes))
adj = adj + torch.eye(num_nodes).to_sparse()  # self loops

features = torch.randn(num_nodes, 8)
weight = torch.randn(8, 4)

degree = torch.sparse.sum(adj, dim=1).to_dense()
norm = degree.pow(-0.5)
adj_norm = adj * norm.view(-1, 1) * norm.view(1, -1)
hidden = torch.relu(torch.sparse.mm(adj_norm, features @ weight))

print("self-loop weights:", adj_norm.diagonal())
print(hidden.shape)
