"""Denoising autoencoder step that draws fresh Gaussian corruption with torch.randn(..., device=...) every
step (same shape each time).

Source: https://github.com/pytorch/xla/issues/2783 ("randn causes recompile even data shapes are
unchanged"; the RNG seed later became device data).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class DAE(nn.Module):
    def __init__(self, d=16, h=8):
        super().__init__()
        self.enc = nn.Linear(d, h)
        self.dec = nn.Linear(h, d)

    def forward(self, x):
        return self.dec(torch.relu(self.enc(x)))


def make_train_step(model, opt, sigma=0.2):
    def train_step(x):
        opt.zero_grad()
        noisy = x + sigma * torch.randn(x.shape, device=x.device)
        loss = F.mse_loss(model(noisy), x)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(8, 16, generator=g).to(device),)


def ENTRY(device):
    model = DAE().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    return make_train_step(model, opt), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]

COMPARE = False  # the corruption comes from the device RNG, which differs from the CPU stream
