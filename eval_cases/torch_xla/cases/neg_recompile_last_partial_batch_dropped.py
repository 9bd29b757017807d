"""Source: https://github.com/pytorch/xla/issues/2020

The fix from the report: the training `DataLoader` drops the smaller last batch
(`drop_last=True`), so every step of every epoch sees the same input shape (22 rows, batches of 8:
two full batches per epoch).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class Regressor(nn.Module):
    def __init__(self, d=6):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, x):
        return self.net(x).squeeze(-1)


def make_loader(x, y):
    return DataLoader(TensorDataset(x, y), batch_size=8, shuffle=False, drop_last=True)


def make_step(model, opt):
    def step(x, y):
        opt.zero_grad()
        loss = F.mse_loss(model(x), y)
        loss.backward()
        opt.step()
        return loss.detach()
    return step


# --- oracle ---
def _epoch(seed):
    g = torch.Generator().manual_seed(seed)
    return list(make_loader(torch.randn(22, 6, generator=g), torch.randn(22, generator=g)))


def ENTRY(device):
    model = Regressor().to(device)
    x, y = _epoch(0)[0]
    return make_step(model, torch.optim.SGD(model.parameters(), lr=0.05)), (x.to(device), y.to(device))


def ALT_ARGS(device):
    return [(x.to(device), y.to(device)) for x, y in _epoch(1)]
