# record: 35ef3efc5bca58bb
import torch

x = torch.ones(3).cuda()
