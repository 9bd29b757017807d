"""Residual MLP with stochastic depth: each block's branch is kept per sample with a torch.bernoulli mask
drawn on the device and rescaled by 1 / survival probability.

Source: https://github.com/pytorch/xla/issues/3352 (long bernoulli time in the profile; the maintainers
checked it was not a CPU fallback: bernoulli is lowered).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class DropPathBlock(nn.Module):
    def __init__(self, dim=16, survival=0.8):
        super().__init__()
        self.ff = nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))
        self.survival = survival

    def forward(self, x):
        keep = torch.bernoulli(torch.full((x.size(0), 1), self.survival, device=x.device, dtype=x.dtype))
        return x + self.ff(x) * keep / self.survival


class DeepMLP(nn.Module):
    def __init__(self, dim=16, n_classes=4):
        super().__init__()
        self.blocks = nn.Sequential(*[DropPathBlock(dim) for _ in range(3)])
        self.head = nn.Linear(dim, n_classes)

    def forward(self, x):
        return self.head(self.blocks(x))


def make_train_step(model, opt):
    def train_step(x, y):
        opt.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(8, 16, generator=g).to(device), torch.randint(0, 4, (8,), generator=g).to(device)


def ENTRY(device):
    model = DeepMLP().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    return make_train_step(model, opt), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]

COMPARE = False  # the masks come from the device RNG, which differs from the CPU stream
