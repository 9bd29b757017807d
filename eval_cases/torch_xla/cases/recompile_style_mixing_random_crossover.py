"""StyleGAN2 style mixing as in lucidrains/stylegan2-pytorch: with probability `mixed_prob` two
latents are mixed at a random crossover layer `tt = int(torch.rand(()).numpy() * num_layers)`, and
the per-layer style list is built with `expand(tt, ...)` / `expand(num_layers - tt, ...)`. The
crossover is a host-side random int that becomes part of the traced shapes, so the generator step
keeps meeting graphs it has not compiled yet.

Source: https://github.com/pytorch/xla/issues/1558 ("Porting Style-GAN 2 to TPU": "the problem is for every
iteration, it re-compiles").
"""
import random

import torch
import torch.nn as nn
import torch.nn.functional as F


class MappingNet(nn.Module):
    def __init__(self, z_dim=16):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(z_dim, z_dim), nn.LeakyReLU(0.2), nn.Linear(z_dim, z_dim))

    def forward(self, z):
        return self.net(F.normalize(z, dim=1))


class StyledGenerator(nn.Module):
    def __init__(self, z_dim=16, num_layers=6, out_dim=24):
        super().__init__()
        self.num_layers = num_layers
        self.const = nn.Parameter(torch.randn(1, z_dim))
        self.mods = nn.ModuleList([nn.Linear(z_dim, z_dim) for _ in range(num_layers)])
        self.to_out = nn.Linear(z_dim, out_dim)

    def forward(self, styles):
        x = self.const.expand(styles.size(0), -1)
        for i, mod in enumerate(self.mods):
            x = F.leaky_relu(mod(x) * (1 + styles[:, i]), 0.2)
        return self.to_out(x)


def styles_def_to_tensor(styles_def):
    return torch.cat([t[:, None, :].expand(-1, n, -1) for t, n in styles_def], dim=1)


class GANTrainer:
    def __init__(self, mapping, gen, opt, mixed_prob=0.9):
        self.mapping, self.gen, self.opt, self.mixed_prob = mapping, gen, opt, mixed_prob

    def train_generator_step(self, z1, z2, real_stats):
        num_layers = self.gen.num_layers
        if random.random() < self.mixed_prob:
            tt = int(torch.rand(()).numpy() * num_layers)
            styles_def = [(self.mapping(z1), tt), (self.mapping(z2), num_layers - tt)]  # XLA: recompile
        else:
            styles_def = [(self.mapping(z1), num_layers)]
        fake = self.gen(styles_def_to_tensor(styles_def))
        loss = F.mse_loss(fake.mean(0), real_stats)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss.detach()


# --- oracle ---
COMPARE = False


def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(4, 16, generator=g).to(device), torch.randn(4, 16, generator=g).to(device),
            torch.randn(24, generator=g).to(device))


def ENTRY(device):
    random.seed(0)
    mapping, gen = MappingNet().to(device), StyledGenerator().to(device)
    opt = torch.optim.Adam(list(mapping.parameters()) + list(gen.parameters()), lr=1e-3)
    return GANTrainer(mapping, gen, opt).train_generator_step, _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2, 3, 4)]
