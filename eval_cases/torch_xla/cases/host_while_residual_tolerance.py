"""Deep-equilibrium style layer that iterates its fixed-point update `while` the residual norm is above a
tolerance (checked on the device value each iteration, capped at 8 iterations).

Source: https://github.com/pytorch/xla/issues/2799 (asks for tf.while/tf.cond: a Python while on a
tensor condition is resolved on the host).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class FixedPointLayer(nn.Module):
    def __init__(self, dim=16, tol=1e-3, max_iter=8):
        super().__init__()
        self.lin = nn.Linear(dim, dim)
        self.tol, self.max_iter = tol, max_iter

    def forward(self, x):
        z = torch.zeros_like(x)
        it = 0
        residual = torch.ones((), device=x.device)
        while residual > self.tol and it < self.max_iter:  # XLA: host
            z_next = torch.tanh(0.5 * self.lin(z) + x)
            residual = (z_next - z).norm() / (z.norm() + 1e-6)
            z, it = z_next, it + 1
        return z


def make_train_step(layer, head, opt):
    def train_step(x, y):
        opt.zero_grad()
        loss = F.cross_entropy(head(layer(x)), y)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(4, 16, generator=g).to(device), torch.randint(0, 3, (4,), generator=g).to(device)


def ENTRY(device):
    layer, head = FixedPointLayer().to(device), nn.Linear(16, 3).to(device)
    opt = torch.optim.Adam(list(layer.parameters()) + list(head.parameters()), lr=1e-3)
    return make_train_step(layer, head, opt), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
