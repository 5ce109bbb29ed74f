# record: f932bd17ff7e2813
import torch

x = torch.ones(3, requires_grad=True)
y = x * 2
y.requires_grad = False
