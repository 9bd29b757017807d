"""Masked-autoencoder style random masking: each step draws a permutation with torch.randperm on the
device, keeps the first 75% of the shuffled patch tokens (a fixed count) and reconstructs the rest.

Source: https://github.com/pytorch/xla/issues/5994 ([Core ATen Opset] Lower aten_randperm; closed with a
lowering).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyMAE(nn.Module):
    def __init__(self, n_tok=8, dim=16, keep=6):
        super().__init__()
        self.keep = keep
        self.enc = nn.Sequential(nn.Linear(dim, dim), nn.GELU(), nn.Linear(dim, dim))
        self.dec = nn.Linear(dim, dim)
        self.mask_tok = nn.Parameter(torch.zeros(dim))

    def forward(self, tokens):
        n = tokens.size(1)
        perm = torch.randperm(n, device=tokens.device)
        kept = tokens[:, perm[: self.keep]]
        latent = self.enc(kept).mean(1, keepdim=True)
        recon = self.dec(latent + self.mask_tok)
        target = tokens[:, perm[self.keep:]]
        return F.mse_loss(recon.expand_as(target), target)


def make_train_step(model, opt):
    def train_step(tokens):
        opt.zero_grad()
        loss = model(tokens)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(2, 8, 16, generator=g).to(device),)


def ENTRY(device):
    model = TinyMAE().to(device)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    return make_train_step(model, opt), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]

COMPARE = False  # the permutation comes from the device RNG, which differs from the CPU stream
