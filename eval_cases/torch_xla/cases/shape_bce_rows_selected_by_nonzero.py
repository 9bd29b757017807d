"""Source: https://github.com/pytorch/xla/issues/4741 ("Dynamic shape on PyTorch/XLA triggers extra
compilations": a feed-forward net whose training inputs come out of `nonzero`, compiles in every
iteration around `binary_cross_entropy`).

Binary classifier trained only on the rows a validity flag keeps, selected with `torch.nonzero`
before the forward pass and the BCE loss.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Feedforward(nn.Module):
    def __init__(self, input_size=8, hidden_size=16):
        super().__init__()
        self.fc1 = nn.Linear(input_size, hidden_size)
        self.fc2 = nn.Linear(hidden_size, 1)

    def forward(self, x):
        return torch.sigmoid(self.fc2(F.relu(self.fc1(x)))).squeeze(-1)


def make_step(model, opt):
    def train_step(x, y, valid):
        rows = torch.nonzero(valid).squeeze(-1)  # XLA: shape
        opt.zero_grad()
        pred = model(x[rows])
        loss = F.binary_cross_entropy(pred, y[rows])
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed, n=16):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 8, generator=g)
    y = (torch.rand(n, generator=g) > 0.5).float()
    valid = (torch.rand(n, generator=g) > 0.3).long()
    valid[0] = 1
    return x.to(device), y.to(device), valid.to(device)


def ENTRY(device):
    model = Feedforward().to(device)
    return make_step(model, torch.optim.SGD(model.parameters(), lr=0.1)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2, 3)]
