"""The hand-written gradient clipping with the device syncs removed as in PyTorch's own fix: the
clip coefficient is clamped to at most 1 and the gradients are always multiplied by it, so nothing
is read on the host and the clipping stays in the step's graph.

Source: https://github.com/pytorch/pytorch/pull/61042 ("torch.nn.utils.clip_grad_norm_: remove device syncs":
"The `clip_coef` conditional is removed, in favor of a call to `clamp(..., max=1.0)` and an
unconditional multiplication").
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def clip_grad_norm(parameters, max_norm, norm_type=2.0):
    grads = [p.grad for p in parameters if p.grad is not None]
    total_norm = torch.norm(torch.stack([torch.norm(g.detach(), norm_type) for g in grads]), norm_type)
    clip_coef = max_norm / (total_norm + 1e-6)
    clip_coef_clamped = torch.clamp(clip_coef, max=1.0)
    for g in grads:
        g.detach().mul_(clip_coef_clamped)
    return total_norm


class Discriminator(nn.Module):
    def __init__(self, d_in=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d_in, 64), nn.LeakyReLU(0.2), nn.Linear(64, 1))

    def forward(self, x):
        return self.net(x)


def make_d_step(disc, opt, max_norm=0.5):
    def d_step(real, fake):
        opt.zero_grad()
        loss = F.softplus(disc(fake)).mean() + F.softplus(-disc(real)).mean()
        loss.backward()
        clip_grad_norm(list(disc.parameters()), max_norm)
        opt.step()
        return loss.detach()
    return d_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(8, 32, generator=g).to(device), torch.randn(8, 32, generator=g).to(device) * 2


def ENTRY(device):
    disc = Discriminator().to(device)
    opt = torch.optim.Adam(disc.parameters(), lr=2e-3, betas=(0.0, 0.99))
    return make_d_step(disc, opt), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
