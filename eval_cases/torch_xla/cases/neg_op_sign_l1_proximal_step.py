"""Sparse linear model trained with a proximal (soft-thresholding) L1 step: torch.sign and clamp on the
real-valued weights after each SGD update.

Source: https://github.com/pytorch/xla/issues/3080 (sgn_out not lowered for complex inputs; sign of a real
tensor is an ordinary lowered elementwise op).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SparseLinear(nn.Module):
    def __init__(self, d=32, n_out=2):
        super().__init__()
        self.lin = nn.Linear(d, n_out)

    def forward(self, x):
        return self.lin(x)


def make_train_step(model, opt, lam=1e-3, lr=0.05):
    def train_step(x, y):
        opt.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        with torch.no_grad():
            w = model.lin.weight
            w.copy_(torch.sign(w) * (w.abs() - lr * lam).clamp(min=0.0))
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(8, 32, generator=g).to(device), torch.randint(0, 2, (8,), generator=g).to(device)


def ENTRY(device):
    model = SparseLinear().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    return make_train_step(model, opt), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
