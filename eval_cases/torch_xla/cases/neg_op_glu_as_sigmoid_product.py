"""Gated linear unit written out by hand (chunk + sigmoid product) in a GLU feed-forward block, so the
backward is built from lowered elementwise ops.

Source: https://github.com/pytorch/xla/issues/9359 (aten::glu_backward is not lowered; the manual
a * sigmoid(b) form avoids it).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class GLUFeedForward(nn.Module):
    def __init__(self, dim=16, hidden=32):
        super().__init__()
        self.proj_in = nn.Linear(dim, 2 * hidden)
        self.proj_out = nn.Linear(hidden, dim)
        self.norm = nn.LayerNorm(dim)

    def forward(self, x):
        a, b = self.proj_in(self.norm(x)).chunk(2, dim=-1)
        return x + self.proj_out(a * torch.sigmoid(b))


class Regressor(nn.Module):
    def __init__(self, dim=16):
        super().__init__()
        self.blocks = nn.Sequential(GLUFeedForward(dim), GLUFeedForward(dim))
        self.head = nn.Linear(dim, 1)

    def forward(self, x):
        return self.head(self.blocks(x)).squeeze(-1)


def make_train_step(model, opt):
    def train_step(x, y):
        opt.zero_grad()
        loss = F.mse_loss(model(x), y)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(8, 16, generator=g).to(device), torch.randn(8, generator=g).to(device)


def ENTRY(device):
    model = Regressor().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    return make_train_step(model, opt), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
