"""Spectral layer that doubles the first and last Chebyshev coefficients in place with a strided
slice and a CPU scalar tensor, `c[0:-1:c.size(0)] *= torch.tensor(2)`, inside the training step.

Source: https://github.com/pytorch/xla/issues/6193 ("aten::local_scalar_dense": this one line raised
the `aten::_local_scalar_dense` count and cost about a second per epoch).

Written as a positive (host_...); the oracle measured no transfer inside the step and no recompile on
torch_xla 2.9 (the CPU scalar tensor is uploaded, not read back): renamed to a negative after labelling,
the code unchanged.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ChebyshevHead(nn.Module):
    def __init__(self, d=16, degree=6):
        super().__init__()
        self.to_coeff = nn.Linear(d, degree)
        self.out = nn.Linear(degree, 2)

    def forward(self, x):
        coefficients = self.to_coeff(x).mean(0)
        coefficients[0:-1:coefficients.size(0)] *= torch.tensor(2)
        return self.out(x @ self.to_coeff.weight.t() * coefficients)


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
    return torch.randn(8, 16, generator=g).to(device), torch.randint(0, 2, (8,), generator=g).to(device)


def ENTRY(device):
    model = ChebyshevHead().to(device)
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    return make_train_step(model, opt), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
