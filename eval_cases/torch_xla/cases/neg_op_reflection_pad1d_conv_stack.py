"""MelGAN-style discriminator stack that pads with nn.ReflectionPad1d before each wide Conv1d.

Source: https://github.com/pytorch/xla/issues/5890 ([Core ATen Opset] Lower aten_reflection_pad1d;
closed once the lowering landed).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ScaleDiscriminator(nn.Module):
    def __init__(self, c=16):
        super().__init__()
        self.layers = nn.Sequential(
            nn.ReflectionPad1d(7), nn.Conv1d(1, c, 15), nn.LeakyReLU(0.2),
            nn.ReflectionPad1d(2), nn.Conv1d(c, c, 5, stride=2), nn.LeakyReLU(0.2),
            nn.Conv1d(c, 1, 3, padding=1))

    def forward(self, wav):
        return self.layers(wav)


def make_train_step(disc, opt):
    def train_step(real, fake):
        opt.zero_grad()
        loss = F.relu(1 - disc(real)).mean() + F.relu(1 + disc(fake)).mean()  # hinge loss
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(2, 1, 64, generator=g).to(device), torch.randn(2, 1, 64, generator=g).to(device)


def ENTRY(device):
    disc = ScaleDiscriminator().to(device)
    opt = torch.optim.Adam(disc.parameters(), lr=1e-4, betas=(0.5, 0.9))
    return make_train_step(disc, opt), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
