"""The StyleGAN2 style mixing of pytorch/xla#1558 with the crossover drawn on the device: both
latents are always mapped, and a per-layer mask `arange(num_layers) < tt` (with `tt` a device
integer tensor) selects which latent styles each layer, so the traced graph is the same every step.

Source: https://github.com/pytorch/xla/issues/1558 (StyleGAN2 style mixing recompiling on TPU; the crossover kept
out of the traced shapes).
"""
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


class GANTrainer:
    def __init__(self, mapping, gen, opt, mixed_prob=0.9):
        self.mapping, self.gen, self.opt, self.mixed_prob = mapping, gen, opt, mixed_prob

    def train_generator_step(self, z1, z2, real_stats):
        num_layers = self.gen.num_layers
        device = z1.device
        mix = torch.rand((), device=device) < self.mixed_prob
        tt = torch.randint(0, num_layers, (), device=device)
        tt = torch.where(mix, tt, torch.full_like(tt, num_layers))
        layer_mask = (torch.arange(num_layers, device=device) < tt)[None, :, None]
        w1 = self.mapping(z1)[:, None, :].expand(-1, num_layers, -1)
        w2 = self.mapping(z2)[:, None, :].expand(-1, num_layers, -1)
        fake = self.gen(torch.where(layer_mask, w1, w2))
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
    mapping, gen = MappingNet().to(device), StyledGenerator().to(device)
    opt = torch.optim.Adam(list(mapping.parameters()) + list(gen.parameters()), lr=1e-3)
    return GANTrainer(mapping, gen, opt).train_generator_step, _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2, 3, 4)]
