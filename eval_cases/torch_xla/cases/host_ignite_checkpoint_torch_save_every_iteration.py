"""Source: https://github.com/pytorch/ignite/issues/999

"TPU and Checkpoint": a training engine whose checkpoint handler runs after every iteration and calls
`torch.save` on the model's and optimizer's state dicts while they live on the XLA device. The issue:
"when working with TPU, we need to go to cpu in order to save the model"; `torch.save` of XLA
tensors pulls every one of them to the host inside the training loop.
"""
import os

import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 8, 3, padding=1)
        self.fc = nn.Linear(8, 10)

    def forward(self, x):
        return self.fc(F.relu(self.conv(x)).mean((2, 3)))


class Engine:
    def __init__(self, model, opt, dirname):
        self.model = model
        self.opt = opt
        self.dirname = dirname
        self.iteration = 0

    def save_checkpoint(self):
        to_save = {"model": self.model.state_dict(), "optimizer": self.opt.state_dict()}
        torch.save(to_save, os.path.join(self.dirname, "checkpoint_last.pt"))  # XLA: host

    def process(self, x, y):
        self.model.train()
        self.opt.zero_grad()
        loss = F.cross_entropy(self.model(x), y)
        loss.backward()
        self.opt.step()
        self.iteration += 1
        self.save_checkpoint()
        return loss.detach()


# --- oracle ---
import tempfile

_KEEP = [Engine]


def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(4, 1, 8, 8, generator=g).to(device), torch.randint(0, 10, (4,), generator=g).to(device)


def ENTRY(device):
    model = Net().to(device)
    engine = Engine(model, torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9), tempfile.mkdtemp())
    return engine.process, _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
