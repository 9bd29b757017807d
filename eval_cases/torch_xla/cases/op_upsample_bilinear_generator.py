"""StyleGAN-like generator block: nn.Upsample(scale_factor=2, mode="bilinear") followed by a modulated
conv, trained with a non-saturating GAN generator loss against a small discriminator.

Source: https://github.com/pytorch/xla/issues/2703 (lowering upsample_bilinear2d for StyleGAN's nn.Upsample).
Written as a negative; the oracle measured aten::upsample_bilinear2d_backward falling back (the forward is
lowered; #8754 reports the same backward fallback off TPU), so it was renamed after labelling."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class GenBlock(nn.Module):
    def __init__(self, c_in, c_out, w_dim=8):
        super().__init__()
        self.up = nn.Upsample(scale_factor=2, mode="bilinear", align_corners=False)  # XLA: op
        self.conv = nn.Conv2d(c_in, c_out, 3, padding=1)
        self.style = nn.Linear(w_dim, c_in)

    def forward(self, x, w):
        x = self.up(x) * (1 + self.style(w))[:, :, None, None]
        return F.leaky_relu(self.conv(x), 0.2)


class Generator(nn.Module):
    def __init__(self, w_dim=8):
        super().__init__()
        self.const = nn.Parameter(torch.randn(1, 8, 4, 4))
        self.b1 = GenBlock(8, 8, w_dim)
        self.b2 = GenBlock(8, 3, w_dim)

    def forward(self, w):
        x = self.const.expand(w.size(0), -1, -1, -1)
        return torch.tanh(self.b2(self.b1(x, w), w))


def make_train_step(gen, disc, opt):
    def train_step(w):
        opt.zero_grad()
        loss = F.softplus(-disc(gen(w))).mean()
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(2, 8, generator=g).to(device),)


def ENTRY(device):
    gen = Generator().to(device)
    disc = nn.Sequential(nn.Conv2d(3, 8, 3, stride=2, padding=1), nn.LeakyReLU(0.2), nn.Flatten(), nn.Linear(8 * 8 * 8, 1)).to(device)
    opt = torch.optim.Adam(gen.parameters(), lr=2e-4, betas=(0.0, 0.99))
    return make_train_step(gen, disc, opt), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
