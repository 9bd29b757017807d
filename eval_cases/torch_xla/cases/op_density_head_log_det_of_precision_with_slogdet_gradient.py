"""Source: https://github.com/pytorch/xla/issues/3171 ("OP lowering for slogdet": `torch.slogdet` had no torch_xla lowering, so it ran on the CPU). Written as the fix twin of the `torch.det` case (the density head takes its log-determinant with `torch.linalg.slogdet`, which torch_xla 2.9 lowers) and renamed after the oracle: the forward is lowered, but the training step's backward fails on the XLA device with "RuntimeError: Expected a proper Tensor but got None (or an undefined Tensor in C++) for argument #0 'LU'" (slogdet's gradient needs the LU factors, which the lowering does not return). (Full-covariance Gaussian density head scoring feature vectors in an anomaly detector.)"""
import torch
import torch.nn as nn


class GaussianDensityHead(nn.Module):
    def __init__(self, dim=6):
        super().__init__()
        self.mean = nn.Parameter(torch.zeros(dim))
        self.factor = nn.Parameter(torch.eye(dim) + 0.05 * torch.ones(dim, dim).tril(-1))
        self.register_buffer("jitter", 1e-3 * torch.eye(dim))

    def precision(self):
        lower = self.factor.tril()
        return lower @ lower.T + self.jitter

    def forward(self, feats):
        prec = self.precision()
        centred = feats - self.mean
        maha = ((centred @ prec) * centred).sum(-1)
        log_det = torch.linalg.slogdet(prec)[1]  # XLA: op
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
