"""Token-dropping augmentation for a small encoder: a keep ratio drawn with `random.uniform` each step sets how
many (randomly permuted) positions are kept, `x[:, perm[:keep]]`.

Source: https://github.com/pytorch/xla/pull/1059 (API guide pitfalls: a different computation per step, such as
tensor sizes set by Python values, recompiles); https://github.com/pytorch/xla/issues/6413 (inputs whose length
varies from batch to batch).
"""
import random

import torch
import torch.nn as nn
import torch.nn.functional as F


class Encoder(nn.Module):
    def __init__(self, d=16, n_classes=3):
        super().__init__()
        self.proj = nn.Linear(d, d)
        self.out = nn.Linear(d, n_classes)

    def forward(self, x):
        return self.out(torch.tanh(self.proj(x)).mean(1))


def make_train_step(model, opt, seq_len=12):
    rng = random.Random(4)

    def train_step(x, y):
        keep = int(seq_len * rng.uniform(0.5, 1.0))
        perm = torch.randperm(seq_len, device=x.device)
        x = x[:, perm[:keep]]  # XLA: recompile
        opt.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
COMPARE = False  # torch.randperm draws from the XLA device's RNG, not the CPU's


def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(4, 12, 16, generator=g).to(device), torch.randint(0, 3, (4,), generator=g).to(device)


def ENTRY(device):
    model = Encoder().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    return make_train_step(model, opt), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
