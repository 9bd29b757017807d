"""Source: https://github.com/huggingface/transformers/pull/44069

A training step that guards the update against a non-finite loss the way trainer code does,
`if not torch.isfinite(loss): skip`, written with `torch.isfinite` as in the report ("Use
torch.isfinite ... the CUDA sync calls may also be reduced"). The condition is a device tensor, so the
Python `if` reads it back to the host on every step.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Regressor(nn.Module):
    def __init__(self, d=12):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d, 24), nn.GELU(), nn.Linear(24, 1))

    def forward(self, x):
        return self.net(x).squeeze(-1)


def make_train_step(model, opt, skipped):
    def train_step(x, y):
        opt.zero_grad()
        loss = F.smooth_l1_loss(model(x), y)
        if not torch.isfinite(loss):  # XLA: host
            skipped.append(1)
            return loss.detach()
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(8, 12, generator=g).to(device), torch.randn(8, generator=g).to(device)


def ENTRY(device):
    model = Regressor().to(device)
    return make_train_step(model, torch.optim.SGD(model.parameters(), lr=0.05), []), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
