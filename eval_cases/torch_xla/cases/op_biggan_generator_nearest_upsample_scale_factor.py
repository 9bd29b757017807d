"""Source: https://github.com/pytorch/xla/issues/2603

BigGAN's generator blocks upsample with `F.interpolate(h, scale_factor=2)` (nearest, the default
`upsample` of BigGAN-PyTorch's `GBlock`). The report lists `aten::upsample_nearest2d` and
`aten::upsample_nearest2d_backward` among the ops routed back to the CPU during training; wrapping
the call in a module did not help on torch-xla 1.7.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class GBlock(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.bn = nn.BatchNorm2d(cin)
        self.conv = nn.Conv2d(cin, cout, 3, padding=1)
        self.skip = nn.Conv2d(cin, cout, 1)

    def forward(self, x):
        h = F.interpolate(F.relu(self.bn(x)), scale_factor=2)  # XLA: op
        return self.conv(h) + self.skip(F.interpolate(x, scale_factor=2))


class Generator(nn.Module):
    def __init__(self, z_dim=16, ch=8):
        super().__init__()
        self.ch = ch
        self.linear = nn.Linear(z_dim, 4 * 4 * ch)
        self.blocks = nn.Sequential(GBlock(ch, ch), GBlock(ch, ch))
        self.out = nn.Conv2d(ch, 3, 3, padding=1)

    def forward(self, z):
        h = self.linear(z).view(z.size(0), self.ch, 4, 4)
        return torch.tanh(self.out(self.blocks(h)))


def make_generator_step(G, critic, opt):
    def generator_step(z):
        opt.zero_grad()
        loss = -critic(G(z)).mean()
        loss.backward()
        opt.step()
        return loss.detach()
    return generator_step


# --- oracle ---
def _z(device, seed):
    return (torch.randn(4, 16, generator=torch.Generator().manual_seed(seed)).to(device),)


def ENTRY(device):
    G = Generator().to(device)
    critic = nn.Sequential(nn.Conv2d(3, 8, 4, 2, 1), nn.LeakyReLU(0.2), nn.Flatten(), nn.Linear(8 * 8 * 8, 1)).to(device)
    return make_generator_step(G, critic, torch.optim.Adam(G.parameters(), 1e-4)), _z(device, 0)


def ALT_ARGS(device):
    return [_z(device, s) for s in (1, 2)]
