"""Source: https://github.com/Lightning-AI/pytorch-lightning/issues/17988

The same epoch-level tracker keeping its running total as a device tensor (`self.total = self.total +
value`); the only conversion to a Python number happens in `compute()`, once per epoch, outside the
training step.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class RunningMean:
    def __init__(self):
        self.total = None
        self.count = 0

    def update(self, value):
        self.total = value if self.total is None else self.total + value
        self.count += 1

    def compute(self):
        return float(self.total) / max(self.count, 1)


class Classifier(nn.Module):
    def __init__(self, d=12, n_classes=4):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d, 24), nn.ReLU(), nn.Linear(24, n_classes))

    def forward(self, x):
        return self.net(x)


def make_train_step(model, opt, epoch_loss):
    def train_step(x, y):
        opt.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        epoch_loss.update(loss.detach())
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(8, 12, generator=g).to(device), torch.randint(0, 4, (8,), generator=g).to(device)


def ENTRY(device):
    model = Classifier().to(device)
    return make_train_step(model, torch.optim.SGD(model.parameters(), lr=0.05), RunningMean()), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
