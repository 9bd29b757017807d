"""Source: https://github.com/pytorch/xla/issues/5058

A small diffusion UNet trained on the noise-prediction loss. Its decoder upsamples with the same
call as diffusers' `Upsample2D`, `F.interpolate(hidden, scale_factor=2.0, mode="nearest")`; the report
found `aten::upsample_nearest2d_backward` in the metrics of the Stable Diffusion training step.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Upsample2D(nn.Module):
    def __init__(self, ch):
        super().__init__()
        self.conv = nn.Conv2d(ch, ch, 3, padding=1)

    def forward(self, hidden):
        hidden = F.interpolate(hidden, scale_factor=2.0, mode="nearest")  # XLA: op
        return self.conv(hidden)


class TinyUNet(nn.Module):
    def __init__(self, ch=8):
        super().__init__()
        self.inp = nn.Conv2d(4, ch, 3, padding=1)
        self.down = nn.Conv2d(ch, ch * 2, 3, stride=2, padding=1)
        self.mid = nn.Conv2d(ch * 2, ch * 2, 3, padding=1)
        self.up = Upsample2D(ch * 2)
        self.out = nn.Conv2d(ch * 3, 4, 3, padding=1)
        self.t_proj = nn.Linear(1, ch * 2)

    def forward(self, latents, t):
        h0 = F.silu(self.inp(latents))
        h = F.silu(self.down(h0)) + self.t_proj(t[:, None])[:, :, None, None]
        h = F.silu(self.mid(h))
        h = self.up(h)
        return self.out(torch.cat([h, h0], dim=1))


def make_train_step(unet, opt):
    def train_step(latents, noise, t):
        opt.zero_grad()
        noisy = latents * (1 - t)[:, None, None, None].sqrt() + noise * t[:, None, None, None].sqrt()
        loss = F.mse_loss(unet(noisy, t), noise)
        loss.backward()
        opt.step()
        return loss.detach()
    return train_step


# --- oracle ---
def _batch(device, seed):
    g = torch.Generator().manual_seed(seed)
    lat = torch.randn(2, 4, 8, 8, generator=g)
    return lat.to(device), torch.randn(2, 4, 8, 8, generator=g).to(device), torch.rand(2, generator=g).to(device)


def ENTRY(device):
    unet = TinyUNet().to(device)
    return make_train_step(unet, torch.optim.AdamW(unet.parameters(), lr=1e-4)), _batch(device, 0)


def ALT_ARGS(device):
    return [_batch(device, s) for s in (1, 2)]
