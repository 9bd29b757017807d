"""ZCA whitening of a feature batch inside the training step (as in decorrelated batch norm and
self-supervised losses): the batch covariance is eigendecomposed with `torch.linalg.eigh` to build
`U diag(1/sqrt(lambda)) U^T`. `eigh` had no XLA lowering in the report's version (its forward and
backward ran on the CPU in every step); torch_xla 2.9 lowers both, so the step stays one graph.

Source: https://github.com/pytorch/xla/issues/6017 ("not lowered: aten::_linalg_eigh": "TransferFromServerTime
too frequent ... Op(s) not lowered: aten::_linalg_eigh" during training).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ZCAWhitening(nn.Module):
    def __init__(self, eps=1e-3):
        super().__init__()
        self.eps = eps

    def forward(self, x):
        xc = x - x.mean(0, keepdim=True)
        cov = xc.T @ xc / (x.size(0) - 1) + self.eps * torch.eye(x.size(1), device=x.device)
        eigvals, eigvecs = torch.linalg.eigh(cov)
        whiten = eigvecs @ torch.diag(eigvals.clamp(min=self.eps).rsqrt()) @ eigvecs.T
        return xc @ whiten


class WhitenedEncoder(nn.Module):
    def __init__(self, d_in=12, d=6, n_classes=3):
        super().__init__()
        self.proj = nn.Linear(d_in, d)
        self.white = ZCAWhitening()
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
