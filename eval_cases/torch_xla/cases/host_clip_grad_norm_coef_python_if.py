"""A training step with the gradient clipping written the way `clip_grad_norm_` was before it was made
sync-free: the total norm is a device tensor, `clip_coef = max_norm / (total_norm + 1e-6)`, and the
gradients are only rescaled `if clip_coef < 1:`. That `if` reads the coefficient back to the host on every
step.

Source: https://github.com/pytorch/pytorch/pull/38615 ("fix clip_grad_norm to work with parameters on the
different devices": the XLA maintainers point out that the conditional `if clip_coef < 1` forces things out
of graph mode and that XLA "need[s] a constant graph").
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def clip_grad_norm(parameters, max_norm, norm_type=2.0):
    grads = [p.grad for p in parameters if p.grad is not None]
    total_norm = torch.norm(torch.stack([torch.norm(g.detach(), norm_type) for g in grads]), norm_type)
    clip_coef = max_norm / (total_norm + 1e-6)
    if clip_coef < 1:  # XLA: host
        for g in grads:
            g.detach().mul_(clip_coef)
    return total_norm


class Regressor(nn.Module):
    def __init__(self, d=12):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d, 24), nn.Tanh(), nn.Linear(24, 1))

    def forward(self, x):
        return self.net(x).squeeze(-1)


def make_train_step(model, opt, max_norm=0.5):
    def train_step(x, y):
        opt.zero_grad()
        loss = F.mse_loss(model(x), y)
        loss.backward()
        clip_grad_norm(list(model.parameters()), max_norm)
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(8, 12, generator=g).to(device), (3 * torch.randn(8, generator=g)).to(device)


def ENTRY(device):
    model = Regressor().to(device)
    return make_train_step(model, torch.optim.SGD(model.parameters(), lr=0.05)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
