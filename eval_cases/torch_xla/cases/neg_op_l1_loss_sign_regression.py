"""Source: https://github.com/Lightning-AI/pytorch-lightning/issues/8863

A depth-regression head trained with an L1 loss plus a sign-agreement term (`torch.sign`);
the Lightning report's profiler named `aten::sgn_out` as not lowered in 2021 (the backward of
`abs`). Whether torch_xla 2.9 lowers it is for the oracle to say.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class DepthHead(nn.Module):
    def __init__(self, d=12):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(d, 24), nn.GELU(), nn.Linear(24, 1))

    def forward(self, feats):
        return self.body(feats).squeeze(-1)


def train_step(model, opt, feats, depth):
    opt.zero_grad()
    pred = model(feats)
    l1 = F.l1_loss(pred, depth)
    sign_agree = (torch.sign(pred - pred.mean()) * torch.sign(depth - depth.mean())).mean()
    loss = l1 + 0.1 * (1 - sign_agree) + 0.01 * pred.abs().mean()
    loss.backward()
    opt.step()
    return loss.detach()


# --- oracle ---
import functools


def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(16, 12, generator=g).to(device), torch.rand(16, generator=g).mul(5).to(device)


def ENTRY(device):
    model = DepthHead().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    return functools.partial(train_step, model, opt), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
