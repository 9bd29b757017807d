"""recompile_random_truncation_length.

Source: pytorch/xla PR #1059 API guide pitfalls (a different computation per step recompiles); random sequence truncation with a Python int.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Classifier(nn.Module):
    def __init__(self, d_in=16, hidden=32, n_classes=4):
        super().__init__()
        self.fc1 = nn.Linear(d_in, hidden)
        self.fc2 = nn.Linear(hidden, n_classes)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


import random


def make_train_step(model, opt, device):
    rng = random.Random(0)  # one stream per run: the eager and XLA runs see the same offsets

    def train_step(x, y):
        n = rng.randint(8, 16)
        opt.zero_grad()
        feats = torch.cat([x[:, :n], torch.zeros(x.shape[0], 16 - n, device=x.device)], 1)  # XLA: recompile
        loss = F.cross_entropy(model(feats), y)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed, b=8, d=16):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(b, d, generator=g).to(device), torch.randint(0, 4, (b,), generator=g).to(device)


def ENTRY(device):
    model = Classifier().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    return make_train_step(model, opt, device), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
