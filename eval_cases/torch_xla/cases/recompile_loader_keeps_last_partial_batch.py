"""An MNIST-style classifier trained from a DataLoader without drop_last: 100 examples in batches of 16 leave
a last batch of 4, a new input shape, so torch_xla compiles the training step once more for it.

Source: https://github.com/pytorch/xla/issues/1368 (how to tell that recompilation happens: the metrics
report shows CompileTime growing; the common cause named there is input shapes changing between steps,
such as a smaller final batch).
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
    loader = DataLoader(TensorDataset(features, targets), batch_size=16, shuffle=True)  # XLA: recompile
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
    return [_args(device, 1, 16), _args(device, 2, 4), _args(device, 3, 16)]
