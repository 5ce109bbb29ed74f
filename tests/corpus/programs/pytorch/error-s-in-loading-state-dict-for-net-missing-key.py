# record: ba58493dd2ee4f11
import torch


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(4, 2)


sd = torch.nn.DataParallel(Net()).state_dict()
Net().load_state_dict(sd)
