"""Source: https://github.com/rosinality/stylegan2-pytorch/issues/175

The StyleGAN2 generator step of the report ("Gets stuck every 4 iterations ... due to path length
regularization"), with the lazy interval set to 1: the path-length penalty is computed in every
generator step, so after the warm-up steps (the first one also turns the running mean of path
lengths from a Python 0.0 into a tensor) every step runs the same program.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyGenerator(nn.Module):
    def __init__(self, z=8, pixels=16):
        super().__init__()
        self.mapping = nn.Sequential(nn.Linear(z, 16), nn.LeakyReLU(0.2), nn.Linear(16, 16))
        self.synthesis = nn.Sequential(nn.Linear(16, 32), nn.LeakyReLU(0.2), nn.Linear(32, pixels))

    def forward(self, z):
        w = self.mapping(z)
        return self.synthesis(w), w


class GeneratorTrainer:
    def __init__(self, g, d, g_reg_every=1, path_batch_shrink=2):
        self.g, self.d = g, d
        self.opt = torch.optim.Adam(g.parameters(), lr=2e-3, betas=(0.0, 0.99))
        self.g_reg_every = g_reg_every
        self.shrink = path_batch_shrink
        self.mean_path_length = 0.0
        self.i = 0

    def g_step(self, z, path_noise):
        self.opt.zero_grad()
        fake, _ = self.g(z)
        F.softplus(-self.d(fake)).mean().backward()
        if self.i % self.g_reg_every == 0:
            fake, latents = self.g(z[: z.shape[0] // self.shrink])
            noise = path_noise / math.sqrt(fake.shape[1])
            grad, = torch.autograd.grad((fake * noise).sum(), latents, create_graph=True)
            path_lengths = grad.pow(2).sum(1).sqrt()
            path_mean = self.mean_path_length + 0.01 * (path_lengths.mean() - self.mean_path_length)
            (self.g_reg_every * (path_lengths - path_mean).pow(2).mean()).backward()
            self.mean_path_length = path_mean.detach()
        self.opt.step()
        self.i += 1
        return fake.detach()


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(8, 8, generator=g).to(device), torch.randn(4, 16, generator=g).to(device)


def ENTRY(device):
    torch.manual_seed(0)
    disc = nn.Sequential(nn.Linear(16, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1)).to(device)
    for p in disc.parameters():
        p.requires_grad_(False)
    return GeneratorTrainer(TinyGenerator().to(device), disc).g_step, _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
