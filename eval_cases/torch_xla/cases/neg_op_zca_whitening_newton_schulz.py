"""The whitening step of pytorch/xla#6017 without an eigendecomposition: the inverse square root of
the covariance is approximated by a fixed number of Newton-Schulz iterations (as in IterNorm), which
are only matrix multiplications and stay in the XLA graph.

Source: https://github.com/pytorch/xla/issues/6017 (`aten::_linalg_eigh` not lowered during training; the
whitening matrix computed from matmuls instead).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class IterativeWhitening(nn.Module):
    def __init__(self, eps=1e-3, iters=5):
        super().__init__()
        self.eps, self.iters = eps, iters

    def forward(self, x):
        xc = x - x.mean(0, keepdim=True)
        d = x.size(1)
        eye = torch.eye(d, device=x.device)
        cov = xc.T @ xc / (x.size(0) - 1) + self.eps * eye
        trace = cov.diagonal().sum()
        sigma_n = cov / trace
        p = eye
        for _ in range(self.iters):
            p = 0.5 * (3.0 * p - p @ p @ p @ sigma_n)
        return xc @ (p / trace.sqrt())


class WhitenedEncoder(nn.Module):
    def __init__(self, d_in=12, d=6, n_classes=3):
        super().__init__()
        self.proj = nn.Linear(d_in, d)
        self.white = IterativeWhitening()
        self.head = nn.Linear(d, n_classes)

    def forward(self, x):
        return self.head(self.white(self.proj(x)))


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
    return torch.randn(32, 12, generator=g).to(device), torch.randint(0, 3, (32,), generator=g).to(device)


def ENTRY(device):
    model = WhitenedEncoder().to(device)
    return make_train_step(model, torch.optim.SGD(model.parameters(), lr=0.01)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
