"""Denoising autoencoder step that corrupts its input by setting a random subset of entries to -1
through boolean indexing: `mask2d = torch.rand_like(x) > 0.7; x[mask2d] = -1.0`.

Source: https://github.com/pytorch/helion/issues/70 ("Ops that produce output of data-dependent shape
(e.g. boolean mask indexing, torch.nonzero)": the 2-D boolean mask scatter `x[mask2d] = -1.0`).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class DenoisingAE(nn.Module):
    def __init__(self, d=24, h=8):
        super().__init__()
        self.enc = nn.Linear(d, h)
        self.dec = nn.Linear(h, d)

    def forward(self, x):
        return self.dec(torch.relu(self.enc(x)))


def make_train_step(model, opt, drop=0.7):
    def train_step(clean):
        opt.zero_grad()
        corrupted = clean.clone()
        mask2d = torch.rand_like(corrupted) > drop
        corrupted[mask2d] = -1.0  # XLA: shape
        loss = F.mse_loss(model(corrupted), clean)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
COMPARE = False


def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(6, 24, generator=g).to(device),)


def ENTRY(device):
    model = DenoisingAE().to(device)
    return make_train_step(model, torch.optim.SGD(model.parameters(), lr=0.1)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
