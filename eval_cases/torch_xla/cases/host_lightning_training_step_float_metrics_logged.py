"""Source: https://github.com/pytorch/xla/issues/3354

A Lightning-style module trained on a TPU VM whose `training_step` logs its metrics as Python
numbers: the loss, the batch accuracy and the gradient-free regularizer are turned into floats
with `float(...)` before they reach the logger, three device-to-host transfers per step (the
report: "TransferFromServerTime too frequent: 104300 in 34742 steps" while compilation was fine).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TabularNet(nn.Module):
    def __init__(self, n_in=12, classes=3):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_in, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, classes))

    def forward(self, x):
        return self.net(x)


class LitTabular:
    def __init__(self, model, weight_decay=1e-4):
        self.model = model
        self.weight_decay = weight_decay
        self.opt = torch.optim.Adam(model.parameters(), lr=1e-3)
        self.logged = {}

    def log(self, name, value):
        self.logged.setdefault(name, []).append(value)

    def training_step(self, x, y):
        logits = self.model(x)
        ce = F.cross_entropy(logits, y)
        l2 = sum(p.pow(2).sum() for p in self.model.parameters())
        loss = ce + self.weight_decay * l2
        acc = (logits.argmax(-1) == y).float().mean()
        self.log("train_loss", float(loss))  # XLA: host
        self.log("train_acc", float(acc))  # XLA: host
        self.log("l2", float(l2))  # XLA: host
        return loss

    def optimization_step(self, x, y):
        self.opt.zero_grad()
        loss = self.training_step(x, y)
        loss.backward()
        self.opt.step()
        return loss.detach()


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(16, 12, generator=g).to(device), torch.randint(0, 3, (16,), generator=g).to(device)


def ENTRY(device):
    return LitTabular(TabularNet().to(device)).optimization_step, _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
