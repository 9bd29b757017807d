"""Source: https://github.com/pytorch/xla/issues/3171 ("OP lowering for slogdet": `torch.slogdet` had no torch_xla lowering, so it ran on the CPU). On torch_xla 2.9 `torch.det` still falls back and `slogdet`'s gradient fails on the XLA device (see the two positives of this report). The usual way around both: parametrize the precision by its Cholesky factor with a positive diagonal, so that its log-determinant is twice the sum of the log-diagonal and no determinant op is needed. (Full-covariance Gaussian density head scoring feature vectors in an anomaly detector.)"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class GaussianDensityHead(nn.Module):
    def __init__(self, dim=6):
        super().__init__()
        self.mean = nn.Parameter(torch.zeros(dim))
        self.raw_diag = nn.Parameter(torch.full((dim,), 0.55))
        self.off_diag = nn.Parameter(0.05 * torch.ones(dim, dim).tril(-1))

    def cholesky_factor(self):
        return self.off_diag.tril(-1) + torch.diag(F.softplus(self.raw_diag))

    def forward(self, feats):
        lower = self.cholesky_factor()
        prec = lower @ lower.T
        centred = feats - self.mean
        maha = ((centred @ prec) * centred).sum(-1)
        log_det = 2.0 * torch.log(torch.diagonal(lower)).sum()
        return 0.5 * (maha - log_det).mean()


def make_train_step(head, opt):
    def train_step(feats):
        opt.zero_grad()
        nll = head(feats)
        nll.backward()
        opt.step()
        return nll.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(16, 6, generator=g) * 0.7 + 0.2).to(device)


def ENTRY(device):
    head = GaussianDensityHead().to(device)
    opt = torch.optim.SGD(head.parameters(), lr=0.01)
    return make_train_step(head, opt), (_batch(device, 0),)


def ALT_ARGS(device):
    return [(_batch(device, s),) for s in (1, 2)]
