"""The MNIST-style classifier with drop_last=True on its training DataLoader: the last 4 of 100 examples are
dropped (shuffled into another epoch), every batch is [16, 20], one graph.

Source: https://github.com/pytorch/xla/issues/1368 (the fix for a smaller final batch recompiling: keep the
input shapes the same on every step, as drop_last does).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class MLP(nn.Module):
    def __init__(self, d_in=20, hidden=32, classes=10):
        super().__init__()
        self.fc1 = nn.Linear(d_in, hidden)
        self.fc2 = nn.Linear(hidden, classes)

    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x)))


def train_step(model, opt, x, y):
    opt.zero_grad()
    loss = F.cross_entropy(model(x), y)
    loss.backward()
    opt.step()
    return loss.detach()


def train(model, opt, features, targets, device, epochs=2):
    loader = DataLoader(TensorDataset(features, targets), batch_size=16, shuffle=True, drop_last=True)
    for _ in range(epochs):
        for x, y in loader:
            train_step(model, opt, x.to(device), y.to(device))


# --- oracle ---
import functools


def _args(device, seed, b):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(b, 20, generator=g).to(device), torch.randint(0, 10, (b,), generator=g).to(device)


def ENTRY(device):
    model = MLP().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    return functools.partial(train_step, model, opt), _args(device, 0, 16)


def ALT_ARGS(device):
    return [_args(device, 1, 16), _args(device, 2, 16), _args(device, 3, 16)]
