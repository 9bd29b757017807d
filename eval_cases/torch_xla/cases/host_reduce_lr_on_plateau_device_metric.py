"""A training step that feeds its validation-style metric straight into
`torch.optim.lr_scheduler.ReduceLROnPlateau.step(metric)`. The scheduler converts the metric with
`float(metrics)` and compares it with its best value in Python, so passing the loss tensor from the
XLA device reads it back to the host on every step.

Source: https://github.com/pytorch/pytorch/issues/163093 ("[lr_scheduler] `ReduceLROnPlateau._reduce_lr` triggers
recompilation with tensor lr": the scheduler is stepped with a tensor metric inside the compiled step and
converts values with `float(...)`).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Regressor(nn.Module):
    def __init__(self, d=12):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d, 24), nn.ReLU(), nn.Linear(24, 1))

    def forward(self, x):
        return self.net(x)


def make_train_step(model, opt, scheduler):
    def train_step(x, y):
        opt.zero_grad()
        loss = F.mse_loss(model(x), y)
        loss.backward()
        opt.step()
        scheduler.step(loss.detach())  # XLA: host
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(8, 12, generator=g).to(device), torch.randn(8, 1, generator=g).to(device)


def ENTRY(device):
    model = Regressor().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    scheduler = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, factor=0.5, patience=1, min_lr=1e-3)
    return make_train_step(model, opt, scheduler), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
