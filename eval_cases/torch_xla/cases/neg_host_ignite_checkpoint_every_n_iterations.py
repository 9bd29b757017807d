"""Source: https://github.com/pytorch/ignite/issues/999

A near miss of the report's per-iteration checkpoint: the handler is attached with
`Events.ITERATION_COMPLETED(every=1000)` semantics, so `torch.save` of the state dicts runs only on
every thousandth iteration (never in a short run of steps), after moving the tensors to the CPU as
the issue asks.
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
    def __init__(self, model, opt, dirname, every=1000):
        self.model = model
        self.opt = opt
        self.dirname = dirname
        self.every = every
        self.iteration = 0

    def save_checkpoint(self):
        state = {k: v.cpu() for k, v in self.model.state_dict().items()}
        torch.save({"model": state}, os.path.join(self.dirname, f"checkpoint_{self.iteration}.pt"))

    def process(self, x, y):
        self.model.train()
        self.opt.zero_grad()
        loss = F.cross_entropy(self.model(x), y)
        loss.backward()
        self.opt.step()
        self.iteration += 1
        if self.iteration % self.every == 0:
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
